import Foundation
import TerminalTesting
import XAPIStub
import XCTest

/// One row of the fault matrix: tweetsh on a pseudo-terminal, with its own copy of a seeded store, pointed at a stub.
///
/// Every row ends the same way, so every row can be held to the same exact store: one successful `search --refresh
/// #swift` against the stub, then `quit`. `FaultFixtures.expected` is what a clean run of exactly that leaves behind.
final class FaultSession {
    let tweetsh = Tweetsh()
    let terminal: PseudoTerminal
    let storePath: String
    private(set) var stub: StubServer
    /// The row's name, for its transcript.
    var name: String?

    /// The command that proves the shell still works: it always goes to the network (`--refresh`).
    static let probe = "search --refresh #swift"

    init(stub: StubServer, baseURL: URL? = nil) throws {
        self.stub = stub
        storePath = tweetsh.home.file("store.sqlite")
        try StoreInspection.copy(from: FaultFixtures.shared.templatePath, to: storePath)
        terminal = try tweetsh.terminal(
            ["--store", storePath], environment: FaultFixtures.apiEnvironment(baseURL ?? stub.baseURL))
        try terminal.waitForPrompt("(x, key)> ", timeout: 20)
    }

    /// Types a command line.
    func type(_ line: String) { terminal.type(line + "\r") }

    /// Waits for the prompt that follows a command.
    func waitForPrompt(timeout: Double = 20) throws { try terminal.waitForPrompt("> ", timeout: timeout) }

    /// Points later checks at a stub started after the session (the connection-refused row).
    func replaceStub(_ newStub: StubServer) { stub = newStub }

    /// The next command works: the probe reaches the stub and prints a page.
    func nextCommandWorks(file: StaticString = #filePath, line: UInt = #line) throws {
        let before = stub.requests(path: "/2/tweets/search/recent").count
        type(Self.probe)
        try terminal.waitFor(" 1 @", timeout: 20)
        try terminal.waitFor("20 @", timeout: 10)
        try waitForPrompt()
        XCTAssertEqual(
            stub.requests(path: "/2/tweets/search/recent").count, before + 1,
            "the probe went to the API", file: file, line: line)
    }

    /// Quits, then checks the store: sound, consistent and holding exactly what a clean run holds; and the token is
    /// nowhere in what the shell showed or wrote.
    func quitAndCheckStore(file: StaticString = #filePath, line: UInt = #line) throws {
        type("quit")
        XCTAssertEqual(exitCode(try terminal.waitForExit(timeout: 20)), 0, "clean exit", file: file, line: line)
        let inspection = StoreInspection(path: storePath)
        XCTAssertEqual(inspection.integrityProblems(), [], "integrity", file: file, line: line)
        let counts = try inspection.counts()
        XCTAssertTrue(counts.isConsistent, "consistent: \(counts)", file: file, line: line)
        XCTAssertEqual(counts, FaultFixtures.shared.expected, "exact counts", file: file, line: line)
        XCTAssertEqual(
            SecretScan.occurrences(
                of: FaultFixtures.token, inFilesUnder: tweetsh.home.path,
                except: [tweetsh.credentialsFile]), [],
            "the token is in no file the run wrote", file: file, line: line)
        XCTAssertFalse(
            terminal.output.contains(FaultFixtures.token), "the token was never shown", file: file, line: line)
        saveTranscript(counts: counts)
    }

    /// With `TWEETSH_FAULT_TRANSCRIPTS=DIR`, keeps what the row showed and the store's counts, for docs/reliability.md.
    private func saveTranscript(counts: StoreCounts) {
        guard let directory = ProcessInfo.processInfo.environment["TWEETSH_FAULT_TRANSCRIPTS"], !directory.isEmpty,
            let name = name
        else { return }
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        writeTextFile(directory + "/" + name + ".txt", terminal.output + "\n--- store: \(counts)\n")
    }
}

/// The seeded store every row starts from, and the counts a clean row ends with; made once per test process.
final class FaultFixtures: @unchecked Sendable {
    static let token = StubServer.defaultBearerToken
    static let shared = FaultFixtures()

    /// Lives as long as the test process, so it is removed at exit rather than by a `TemporaryDirectory`.
    private static let directory = "/tmp/tweetsh-faults-template-\(getpid())"
    let templatePath: String
    let expected: StoreCounts

    static func apiEnvironment(_ baseURL: URL) -> [String: String] {
        ["TWEETSH_API_BASE": baseURL.absoluteString, "X_BEARER_TOKEN": token]
    }

    private init() {
        try! FileManager.default.createDirectory(atPath: Self.directory, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: FaultFixtures.directory) }
        templatePath = Self.directory + "/template.sqlite"
        // The first run seeds the demo corpus; `source` only prints where searches go.
        let seeding = Tweetsh()
        let seeded = try? seeding.run(["--store", templatePath, "--source", "local", "-c", "source"])
        precondition(seeded?.status == 0, "seeding the template store failed: \(seeded?.standardError ?? "")")
        // A clean run of the probe on a copy gives the counts every row must end with.
        let stub = try! StubServer()
        defer { stub.stop() }
        let control = Self.directory + "/control.sqlite"
        try! StoreInspection.copy(from: templatePath, to: control)
        let run = try? seeding.run(
            ["--store", control, "-c", FaultSession.probe], environment: Self.apiEnvironment(stub.baseURL))
        precondition(run?.status == 0, "the control run failed: \(run?.standardError ?? "")")
        expected = try! StoreInspection(path: control).counts()
    }
}

/// Searches files for a secret byte string, as `strings | grep` would, including binary files such as the store.
enum SecretScan {
    /// Paths of regular files under `root` (recursively) whose bytes contain `secret`, leaving out `except`.
    static func occurrences(of secret: String, inFilesUnder root: String, except: [String] = []) -> [String] {
        let needle = Data(secret.utf8)
        var found: [String] = []
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        for case let relative as String in walker {
            let path = root + "/" + relative
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
                !except.contains(path), let data = FileManager.default.contents(atPath: path)
            else { continue }
            if data.range(of: needle) != nil { found.append(path) }
        }
        return found
    }
}
