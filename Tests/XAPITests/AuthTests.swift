import Foundation
import Testing
import XAPIStub

@testable import XAPI

#if canImport(Glibc)
    import Glibc
#endif

/// A fresh `$XDG_CONFIG_HOME` per test.
private func temporaryConfigHome() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("xapi-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

private func mode(of url: URL) -> mode_t {
    var info = stat()
    stat(url.path, &info)
    return info.st_mode & 0o777
}

@Suite("Auth: token exchange, credentials file, verification, logout")
struct AuthTests {
    @Test func exchangeSendsBasicHeaderAndFormBodyAndChecksTokenType() async throws {
        let harness = try Harness(token: nil)
        let store = CredentialStore(environment: ["XDG_CONFIG_HOME": try temporaryConfigHome().path])
        let auth = Authenticator(client: harness.client, store: store, environment: [:])
        let token = try await auth.exchange(
            consumerKey: StubServer.defaultConsumerKey, consumerSecret: StubServer.defaultConsumerSecret)
        #expect(token.revealForAuthorizationHeader() == StubServer.defaultBearerToken)
        let request = try #require(harness.stub.requests(path: "/oauth2/token").first)
        #expect(request.method == "POST")
        #expect(request.headers["content-type"] == "application/x-www-form-urlencoded;charset=UTF-8")
        #expect(request.bodyText == "grant_type=client_credentials")
        // base64(urlencode(key) ":" urlencode(secret)); the secret's `+`, `/`, `=` and `&` are percent-encoded first.
        let expected = Data("stub-consumer-key:stub%2Bsecret%2Fwith%3Dodd%26chars".utf8).base64EncodedString()
        #expect(request.headers["authorization"] == "Basic \(expected)")

        harness.stub.enqueue(.tokenTypeNotBearer, path: "/oauth2/token")
        let wrongType = await capture {
            _ = try await auth.exchange(
                consumerKey: StubServer.defaultConsumerKey, consumerSecret: StubServer.defaultConsumerSecret)
        }
        #expect(wrongType as? XAPIError == .tokenExchangeFailed("token_type was \"mac\", not \"bearer\""))
    }

    @Test func refusedConsumerCredentials() async throws {
        let harness = try Harness(token: nil)
        let store = CredentialStore(environment: ["XDG_CONFIG_HOME": try temporaryConfigHome().path])
        let auth = Authenticator(client: harness.client, store: store, environment: [:])
        let error = await capture {
            _ = try await auth.signIn(consumerKey: "stub-consumer-key", consumerSecret: "wrong")
        }
        #expect(error as? XAPIError == .invalidConsumerCredentials)
        #expect("\(error!)".contains("run `auth` again"))
        #expect(!FileManager.default.fileExists(atPath: store.fileURL.path))
        #expect(!harness.client.hasToken)
    }

    @Test func signInVerifiesThenStoresTheTokenPrivately() async throws {
        let harness = try Harness(token: nil)
        let home = try temporaryConfigHome()
        let store = CredentialStore(environment: ["XDG_CONFIG_HOME": home.path])
        #expect(store.fileURL.path == home.path + "/tweetsh/credentials")
        let auth = Authenticator(client: harness.client, store: store, environment: [:])
        try await auth.signIn(
            consumerKey: StubServer.defaultConsumerKey, consumerSecret: StubServer.defaultConsumerSecret)
        #expect(harness.client.maskedToken == "AAAA…")
        #expect(harness.stub.requests.map(\.path) == ["/oauth2/token", "/2/users/by/username/XDevelopers"])
        #expect(mode(of: store.fileURL) == 0o600)
        #expect(mode(of: store.fileURL.deletingLastPathComponent()) == 0o700)
        #expect(try store.loadToken()?.revealForAuthorizationHeader() == StubServer.defaultBearerToken)
    }

    @Test func signInWithABadBearerKeepsThePreviousToken() async throws {
        let harness = try Harness()
        let store = CredentialStore(environment: ["XDG_CONFIG_HOME": try temporaryConfigHome().path])
        let auth = Authenticator(client: harness.client, store: store, environment: [:])
        let error = await capture { try await auth.signIn(bearer: BearerToken("AAAAnot-the-right-token-at-all")!) }
        #expect(error as? XAPIError == .unauthorized(endpoint: "GET /2/users/by/username/:username"))
        #expect(harness.client.currentToken()?.revealForAuthorizationHeader() == StubServer.defaultBearerToken)
        #expect(try store.loadToken() == nil)
    }

    @Test func resolveOrderEnvironmentThenFileThenKeyAndSecret() async throws {
        let harness = try Harness(token: nil)
        let store = CredentialStore(environment: ["XDG_CONFIG_HOME": try temporaryConfigHome().path])
        let both = Authenticator(
            client: harness.client, store: store,
            environment: ["X_BEARER_TOKEN": "AAAAfirst-one-wins", "BEARER_TOKEN": "second"])
        #expect(try await both.resolve() == .xBearerTokenVariable)
        #expect(harness.client.currentToken()?.revealForAuthorizationHeader() == "AAAAfirst-one-wins")
        let second = Authenticator(
            client: harness.client, store: store, environment: ["BEARER_TOKEN": "AAAAsecond-token"])
        #expect(try await second.resolve() == .bearerTokenVariable)

        let nothing = Authenticator(client: harness.client, store: store, environment: [:])
        let missing = await capture { _ = try await nothing.resolve() }
        #expect(missing as? XAPIError == .missingCredentials)

        let keys = Authenticator(
            client: harness.client, store: store,
            environment: [
                "CONSUMER_KEY": StubServer.defaultConsumerKey, "CONSUMER_SECRET": StubServer.defaultConsumerSecret,
            ])
        #expect(try await keys.resolve() == .consumerKeyExchange)
        #expect(mode(of: store.fileURL) == 0o600)
        // Now stored, the file is used without another exchange.
        #expect(try await nothing.resolve() == .credentialsFile)
        #expect(harness.stub.requests(path: "/oauth2/token").count == 1)
    }

    @Test func readableCredentialsFileIsFixedWithAWarning() throws {
        let home = try temporaryConfigHome()
        let store = CredentialStore(environment: ["XDG_CONFIG_HOME": home.path])
        try store.save(BearerToken("AAAAfile-token-value")!)
        chmod(store.fileURL.path, 0o644)
        var warnings: [String] = []
        let token = try store.loadToken { warnings.append($0) }
        #expect(token?.revealForAuthorizationHeader() == "AAAAfile-token-value")
        #expect(mode(of: store.fileURL) == 0o600)
        #expect(warnings.count == 1 && warnings[0].contains("now 0600") && warnings[0].contains("644"))
        #expect(try store.loadToken { warnings.append($0) } != nil)
        #expect(warnings.count == 1, "no warning once fixed")
    }

    @Test func malformedCredentialsFileNamesTheLine() throws {
        let home = try temporaryConfigHome()
        let store = CredentialStore(environment: ["XDG_CONFIG_HOME": home.path])
        try FileManager.default.createDirectory(
            at: store.fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "# comment\n\nAAAAjust-a-token-pasted\n".write(to: store.fileURL, atomically: true, encoding: .utf8)
        chmod(store.fileURL.path, 0o600)
        #expect(
            throws: XAPIError.invalidSetting(
                "\(store.fileURL.path) line 3: expected key=value. Run `auth` to rewrite the file.")
        ) { try store.loadToken() }
        try "bearer_token=AAAA with spaces\n".write(to: store.fileURL, atomically: true, encoding: .utf8)
        let error = #expect(throws: XAPIError.self) { try store.loadToken() }
        #expect(error.map { "\($0)" }?.contains("line 1: the bearer token") == true)
    }

    @Test func logoutRemovesTheFileAndInvalidatesBestEffort() async throws {
        let harness = try Harness(token: nil)
        let store = CredentialStore(environment: ["XDG_CONFIG_HOME": try temporaryConfigHome().path])
        let auth = Authenticator(client: harness.client, store: store, environment: [:])
        try await auth.signIn(
            consumerKey: StubServer.defaultConsumerKey, consumerSecret: StubServer.defaultConsumerSecret)
        let result = try await auth.logout(
            consumerKey: StubServer.defaultConsumerKey, consumerSecret: StubServer.defaultConsumerSecret)
        #expect(result == LogoutResult(removedFile: true, invalidated: true))
        #expect(!FileManager.default.fileExists(atPath: store.fileURL.path))
        #expect(!harness.client.hasToken)
        #expect(!harness.stub.accepts(token: StubServer.defaultBearerToken))
        let request = try #require(harness.stub.requests(path: "/oauth2/invalidate_token").first)
        #expect(request.form["access_token"] == StubServer.defaultBearerToken)
        #expect(request.headers["authorization"]?.hasPrefix("Basic ") == true)

        // The invalidated token now gets a 401 that says to run `auth`.
        harness.client.setToken(BearerToken(StubServer.defaultBearerToken))
        let error = await capture { try await auth.verify() }
        #expect(error as? XAPIError == .unauthorized(endpoint: "GET /2/users/by/username/:username"))

        // Again, with nothing stored and X refusing: still no throw, and it says what happened.
        let again = try await auth.logout(
            consumerKey: StubServer.defaultConsumerKey, consumerSecret: StubServer.defaultConsumerSecret)
        #expect(again == LogoutResult(removedFile: false, invalidated: false))
        let withoutKeys = try await auth.logout()
        #expect(withoutKeys == LogoutResult(removedFile: false, invalidated: nil))
    }
}
