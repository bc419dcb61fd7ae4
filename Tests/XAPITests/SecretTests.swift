import Foundation
import Testing
import TweetKit
import XAPIStub

@testable import XAPI

#if canImport(Glibc)
    import Glibc
#endif

private let token = StubServer.defaultBearerToken
/// A stretch of the token that no masked form contains, to catch partial leaks too.
private let tokenCore = "StubTokenForTests"

private func everyForm(of value: Any) -> [String] {
    var dumped = ""
    dump(value, to: &dumped)
    return [String(describing: value), String(reflecting: value), "\(value)", dumped]
}

private func assertNoToken(_ texts: [String], sourceLocation: SourceLocation = #_sourceLocation) {
    for text in texts {
        #expect(
            !text.contains(token) && !text.contains(tokenCore), "token leaked in: \(text)",
            sourceLocation: sourceLocation)
        #expect(
            !text.contains(StubServer.defaultConsumerSecret), "secret leaked in: \(text)",
            sourceLocation: sourceLocation)
    }
}

/// Runs `body` with the process's stdout and stderr written to a file, and returns what was written.
/// The captured bytes are written back to stdout afterwards, so nothing of the test run's own output is lost.
private func capturingOutput(_ body: () async throws -> Void) async rethrows -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("xapi-captured-\(UUID().uuidString)").path
    fflush(nil)
    let savedOut = dup(1)
    let savedErr = dup(2)
    let file = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    dup2(file, 1)
    dup2(file, 2)
    close(file)
    func restore() {
        fflush(nil)
        dup2(savedOut, 1)
        dup2(savedErr, 2)
        close(savedOut)
        close(savedErr)
    }
    do {
        try await body()
    } catch {
        restore()
        throw error
    }
    restore()
    let captured = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    unlink(path)
    FileHandle.standardOutput.write(Data(captured.utf8))
    return captured
}

@Suite("The token never shows in errors, logs, debug output or captured output")
struct SecretTests {
    @Test func bearerTokenPrintsOnlyItsMask() throws {
        let bearer = try #require(BearerToken(token))
        #expect(bearer.masked == "AAAA…")
        #expect(bearer.revealForAuthorizationHeader() == token)
        assertNoToken(everyForm(of: bearer) + everyForm(of: [bearer]) + everyForm(of: Optional(bearer) as Any))
        #expect(BearerToken.mask("short") == "…")
        #expect(BearerToken("  \(token)\n")?.revealForAuthorizationHeader() == token)
        #expect(
            BearerToken("AAAA\r\nX-Injected: yes") == nil && BearerToken("AAAA token") == nil && BearerToken(" ") == nil
        )
        let client = XAPIClient(token: bearer)
        assertNoToken(everyForm(of: client) + everyForm(of: XAPISource(client: client)))
        #expect("\(client)".contains("AAAA…"))
    }

    @Test func serverTextEchoingTheTokenIsRedacted() async throws {
        let harness = try Harness()
        // The stub's 400 repeats the offending value, here the token itself.
        let error = await capture {
            _ = try await harness.get(
                "/2/tweets/search/recent", "GET /2/tweets/search/recent",
                [URLQueryItem(name: "query", value: "#swift"), URLQueryItem(name: "max_results", value: token)])
        }
        let text = "\(try #require(error))"
        #expect(text.contains("AAAA…") && text.contains("max_results"))
        guard case .badRequest(_, _, "max_results", nil)? = error as? XAPIError else {
            Issue.record("redaction must keep the error's case, got \(text)")
            return
        }
        assertNoToken(everyForm(of: error!))
        assertNoToken(harness.logs.all)
    }

    @Test func noTokenInAnyMessageOrOutputOfAFullSession() async throws {
        var texts: [String] = []
        let output = try await capturingOutput {
            let harness = try Harness()
            let warnings = Recorder<String>()
            let home = FileManager.default.temporaryDirectory.appendingPathComponent("xapi-secret-\(UUID().uuidString)")
            let store = CredentialStore(environment: ["XDG_CONFIG_HOME": home.path])
            let auth = Authenticator(client: harness.client, store: store, environment: [:])
            let source = XAPISource(
                client: harness.client, cache: InMemoryPageCache(), onWarning: { warnings.append($0) })
            try await auth.signIn(
                consumerKey: StubServer.defaultConsumerKey, consumerSecret: StubServer.defaultConsumerSecret)
            let faults: [StubFault] = [
                .unauthorized, .clientForbidden, .unsupportedAuthentication, .badRequest(position: 3), .usageCap,
                .html404, .empty404,
            ]
            for fault in faults {
                harness.stub.enqueue(fault)
                if let error = await capture({
                    _ = try await source.search(SearchRequest(query: "#swift"), cursor: nil)
                }) {
                    texts += everyForm(of: error) + [error.localizedDescription]
                    print("error: \(error)")
                }
            }
            harness.stub.enqueue([.serviceUnavailable, .closeConnection, .truncatedBody, .windowRateLimit(after: 0.5)])
            let page = try await source.search(SearchRequest(query: "#swift"), cursor: nil)
            _ = try await source.lookup(ids: [StubCorpus.Fixture.threadRoot, 7])
            _ = try await source.search(SearchRequest(query: "#deleted"), cursor: page.nextToken)
            let badAuth = Authenticator(client: harness.client, store: store, environment: [:])
            if let error = await capture({
                try await badAuth.signIn(consumerKey: "k", consumerSecret: StubServer.defaultConsumerSecret)
            }) {
                texts += everyForm(of: error)
                print("error: \(error)")
            }
            _ = try await auth.logout(
                consumerKey: StubServer.defaultConsumerKey, consumerSecret: StubServer.defaultConsumerSecret)
            if let error = await capture({ try await auth.verify() }) {
                texts += everyForm(of: error)
                print("error: \(error)")
            }
            // What a shell prints: every wait line, warning, log line, the limits table and the client itself.
            for wait in harness.waits.all { print(wait) }
            for line in warnings.all + harness.logs.all { FileHandle.standardError.write(Data((line + "\n").utf8)) }
            for limit in harness.client.rateLimits() { print(limit) }
            dump(harness.client)
            dump(auth)
            texts += harness.waits.all.map(\.description) + warnings.all + harness.logs.all
            #expect(!harness.logs.all.isEmpty && !harness.waits.all.isEmpty && !warnings.all.isEmpty)
            try? FileManager.default.removeItem(at: home)
        }
        // The window wait is printed: "…, retrying in N s", or "retrying now" when a loaded machine prints it late.
        #expect(output.contains("run `auth`") && output.contains("rate limit on GET /2/tweets/search/recent:"))
        assertNoToken(texts + [output])
        // And everything the other tests of this run have recorded so far.
        assertNoToken(TokenLeakLedger.shared.everything)
    }
}
