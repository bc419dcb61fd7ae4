import Foundation
import Glibc
import TerminalTesting
import Testing

@testable import LineEditor

/// The libedit reader driven through a real pseudo-terminal, by spawning `lineeditor-demo` on it.
@Suite("Terminal end to end")
struct TerminalEndToEndTests {
    static let prompt = "\u{1B}[1;34mdemo\u{1B}[0m> "

    /// A demo process with its own HOME and XDG_STATE_HOME, and its history file.
    ///
    /// No LANG or LC_* is passed, so the demo starts in the C locale and LineEditor must switch LC_CTYPE to UTF-8 itself
    /// for the accented and CJK input below to survive.
    struct Session {
        let terminal: PseudoTerminal
        let historyPath: String
    }

    static func start(
        in directory: TemporaryDirectory, editrc: String? = nil, extraEnvironment: [String: String] = [:]
    ) throws -> Session {
        let demo = builtProductsDirectory() + "/lineeditor-demo"
        try #require(
            access(demo, X_OK) == 0, "build the demo first: swift build --product lineeditor-demo (looked for \(demo))")
        let home = directory.file("home")
        mkdir(home, 0o700)
        if let editrc { writeTextFile(home + "/.editrc", editrc) }
        let state = directory.file("state")
        let environment = [
            "HOME": home,
            "XDG_STATE_HOME": state,
            "TERM": "xterm",
            "PATH": "/usr/bin:/bin",
        ]
        // A sanitizer run (scripts/sanitizers.sh) configures the demo it spawns through these, e.g. libedit's known leaks.
        .merging(ProcessInfo.processInfo.environment.filter { $0.key.hasSuffix("SAN_OPTIONS") }) { $1 }
        .merging(extraEnvironment) { $1 }
        let terminal = try PseudoTerminal(executable: demo, environment: environment)
        return Session(terminal: terminal, historyPath: state + "/tweetsh/history")
    }

    @Test("Tab completion, ^R recall, Ctrl-C discard and Ctrl-D end, with the history file afterwards")
    func fullSession() throws {
        let directory = TemporaryDirectory()
        // Binding ^O to our function only works if .editrc is read after the function is registered.
        let session = try Self.start(in: directory, editrc: "bind ^O tweetsh-complete\n")
        let terminal = session.terminal
        try terminal.waitForPrompt(Self.prompt)

        // Tab completes the only candidate and adds a space.
        terminal.type("sea\t")
        try terminal.waitFor("rch ")
        terminal.type("from:jack\r")
        try terminal.waitFor("got: [search from:jack]")

        try terminal.waitForPrompt(Self.prompt)
        terminal.type("show 42\r")
        try terminal.waitFor("got: [show 42]")

        // A sensitive line is returned to the program but never recorded.
        try terminal.waitForPrompt(Self.prompt)
        terminal.type("auth SECRET-TOKEN-123\r")
        try terminal.waitFor("got: [auth SECRET-TOKEN-123]")

        // Ctrl-C discards the partial line and a fresh prompt follows; the program keeps running.
        try terminal.waitForPrompt(Self.prompt)
        terminal.type("discard me")
        try terminal.waitFor("discard me")
        terminal.type("\u{03}")
        try terminal.waitFor("interrupted")
        try terminal.waitForPrompt(Self.prompt)

        // ^R searches history incrementally; Enter accepts the match.
        terminal.type("\u{12}")
        terminal.type("from:")
        try terminal.waitFor("search from:jack")
        terminal.type("\r")
        try terminal.waitFor("got: [search from:jack]")

        // Several candidates: the common prefix is inserted and the candidates listed; ^O comes from .editrc.
        try terminal.waitForPrompt(Self.prompt)
        terminal.type("show @j\u{0F}")
        try terminal.waitFor("@jack  @jane")
        terminal.type("n\t\r")
        try terminal.waitFor("got: [show @jane ]")

        // Window resizes are followed: at 80 columns the four s-words fit one row, at 20 the list has two columns.
        try terminal.waitForPrompt(Self.prompt)
        terminal.type("s\t")
        try terminal.waitFor("search  show    source  status")
        terminal.resize(columns: 20, rows: 20)
        terminal.type("\u{15}s\t")
        try terminal.waitFor("search  source")
        try terminal.waitFor("show    status")
        terminal.resize(columns: 80, rows: 24)
        terminal.type("\u{15}s\t")
        try terminal.waitFor("search  show    source  status")
        // Completion in the middle of a line: the word before the cursor is completed in place.
        terminal.type("\u{15}#swiftl more")
        try terminal.waitFor("more")
        terminal.type("\u{01}" + String(repeating: "\u{06}", count: 7) + "\t")
        // libedit draws the insertion with an insert-characters escape, so only the new text appears.
        try terminal.waitFor("ang")
        terminal.type("\r")
        try terminal.waitFor("got: [#swiftlang more]")

        // ^W deletes the previous word; accents and CJK go through the wide-character API.
        try terminal.waitForPrompt(Self.prompt)
        terminal.type("café 日本 drop\u{17}語\r")
        try terminal.waitFor("got: [café 日本 語]")

        // Ctrl-Z is a key while editing; here it cannot stop the program (its process group is orphaned, so the
        // kernel discards SIGTSTP), and editing must carry on afterwards.
        try terminal.waitForPrompt(Self.prompt)
        terminal.type("ab\u{1A}")
        try terminal.waitForPrompt("ab")
        terminal.type("cd\r")
        try terminal.waitFor("got: [abcd]")

        try terminal.waitForPrompt(Self.prompt)
        terminal.type("\u{04}")
        try terminal.waitFor("end of input")
        let status = try terminal.waitForExit()
        #expect(status == 0, "exit status \(status)")

        let output = terminal.output
        #expect(!output.contains("discard me]"), "the interrupted line must not be delivered")
        let history = try History(path: session.historyPath)
        #expect(
            history.entries == [
                "search from:jack", "show 42", "search from:jack", "show @jane ", "#swiftlang more", "café 日本 語",
                "abcd",
            ])
        #expect(permissions(of: session.historyPath) == 0o600)
        #expect(readTextFile(session.historyPath)?.contains("SECRET-TOKEN") == false)
    }

    @Test("a secret is read without echo and stays out of history")
    func secret() throws {
        let directory = TemporaryDirectory()
        let session = try Self.start(in: directory)
        let terminal = session.terminal
        try terminal.waitForPrompt(Self.prompt)
        terminal.type("secret\r")
        try terminal.waitFor("token: ")
        #expect(terminal.localModes & tcflag_t(ECHO) == 0, "echo is off once the secret prompt shows")
        terminal.type("hunter2x\u{7F}\r")
        try terminal.waitFor("secret: 7 characters")
        try terminal.waitForPrompt(Self.prompt)
        terminal.type("\u{04}")
        _ = try terminal.waitForExit()
        #expect(!terminal.output.contains("hunter2"))
        #expect(try History(path: session.historyPath).entries == ["secret"])
        #expect(readTextFile(session.historyPath)?.contains("hunter") == false)
    }

    @Test("the terminal is restored when the program is killed at the prompt or at a secret prompt")
    func restoresTerminalOnFatalSignal() throws {
        for keys in ["", "secret\r"] {
            let directory = TemporaryDirectory()
            let session = try Self.start(in: directory)
            let terminal = session.terminal
            try terminal.waitForPrompt(Self.prompt)
            if !keys.isEmpty {
                terminal.type(keys)
                try terminal.waitFor("token: ")
            }
            #expect(
                terminal.localModes & tcflag_t(ECHO | ICANON) != tcflag_t(ECHO | ICANON), "the editor switched modes")

            kill(terminal.pid, SIGTERM)
            let status = try terminal.waitForExit()
            #expect(status & 0x7F == SIGTERM, "killed by SIGTERM, status \(status)")
            #expect(
                terminal.localModes & tcflag_t(ECHO | ICANON) == tcflag_t(ECHO | ICANON),
                "keys: \(keys.debugDescription)")
        }
    }

    @Test("the terminal is restored when the program traps inside a completion callback")
    func restoresTerminalOnCrash() throws {
        let directory = TemporaryDirectory()
        // The Swift backtracer still runs (our handler chains to it), but must not wait for a key on the terminal.
        // Under AddressSanitizer it is turned off: its bulk reads of the crashed stack are themselves reported as a
        // stack-buffer-underflow (in the runtime's CrashHandlerLinux.cpp), which ends the process before the trap does.
        let underASan = ProcessInfo.processInfo.environment["ASAN_OPTIONS"] != nil
        let backtrace = underASan ? "enable=no" : "interactive=no"
        let session = try Self.start(in: directory, extraEnvironment: ["SWIFT_BACKTRACE": backtrace])
        let terminal = session.terminal
        try terminal.waitForPrompt(Self.prompt)
        terminal.type("!crash\t")
        let status = try terminal.waitForExit(timeout: 60)
        #expect(terminal.output.contains("crash requested"))
        let signal = status & 0x7F
        #expect(signal == SIGILL || signal == SIGTRAP, "died from a trap, status \(status)")
        #expect(terminal.localModes & tcflag_t(ECHO | ICANON) == tcflag_t(ECHO | ICANON))
    }

    @Test("a history file that cannot be written is reported once, and lines still arrive")
    func unwritableHistory() throws {
        let directory = TemporaryDirectory()
        // A directory where the lock file belongs makes every save fail, even for root.
        let stateDirectory = directory.file("state/tweetsh")
        try HistoryFile.createParentDirectory(of: stateDirectory + "/history")
        mkdir(stateDirectory + "/history.lock", 0o700)
        let session = try Self.start(in: directory)
        let terminal = session.terminal
        for line in ["one", "two", "three"] {
            try terminal.waitForPrompt(Self.prompt)
            terminal.type(line + "\r")
            try terminal.waitFor("got: [\(line)]")
        }
        try terminal.waitForPrompt(Self.prompt)
        terminal.type("\u{04}")
        #expect(try terminal.waitForExit() == 0)
        let warnings = terminal.output.components(separatedBy: "history: cannot open").count - 1
        #expect(warnings == 1, "output: \(terminal.output.debugDescription)")
    }

    @Test("two shells at once keep each other's lines")
    func twoShells() throws {
        let directory = TemporaryDirectory()
        let first = try Self.start(in: directory)
        let second = try Self.start(in: directory)
        try first.terminal.waitForPrompt(Self.prompt)
        try second.terminal.waitForPrompt(Self.prompt)
        for round in 1...3 {
            first.terminal.type("first \(round)\r")
            try first.terminal.waitFor("got: [first \(round)]")
            try first.terminal.waitForPrompt(Self.prompt)
            second.terminal.type("second \(round)\r")
            try second.terminal.waitFor("got: [second \(round)]")
            try second.terminal.waitForPrompt(Self.prompt)
        }
        first.terminal.type("\u{04}")
        second.terminal.type("\u{04}")
        _ = try first.terminal.waitForExit()
        _ = try second.terminal.waitForExit()
        #expect(
            try History(path: first.historyPath).entries == [
                "first 1", "second 1", "first 2", "second 2", "first 3", "second 3",
            ])
    }
}
