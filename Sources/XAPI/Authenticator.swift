import Foundation

/// Where a bearer token came from, for `auth status` and messages.
public enum CredentialSource: String, Sendable, Hashable {
    /// The `X_BEARER_TOKEN` variable.
    case xBearerTokenVariable = "X_BEARER_TOKEN"
    /// The `BEARER_TOKEN` variable.
    case bearerTokenVariable = "BEARER_TOKEN"
    /// The credentials file.
    case credentialsFile = "credentials file"
    /// Exchanged from `CONSUMER_KEY`/`CONSUMER_SECRET` (or a key and secret entered in the shell).
    case consumerKeyExchange = "consumer key and secret"
}

/// What `logout` managed to do.
public struct LogoutResult: Sendable, Hashable {
    /// Whether a credentials file was deleted.
    public var removedFile: Bool
    /// True when X confirmed the invalidation, false when it refused or could not be reached, nil when it was not
    /// attempted (no consumer key and secret to authenticate the call with).
    public var invalidated: Bool?

    /// Creates a result.
    public init(removedFile: Bool, invalidated: Bool?) {
        self.removedFile = removedFile
        self.invalidated = invalidated
    }
}

/// Signs the client in and out: finds a token, exchanges a key and secret for one, verifies it, stores it, forgets it.
public struct Authenticator: Sendable {
    /// The username looked up to check a token: one cheap user lookup, no tweets read from the monthly cap.
    public static let probeUsername = "XDevelopers"

    /// The client whose token this manages.
    public let client: XAPIClient
    /// The credentials file.
    public let store: CredentialStore
    /// The environment variables to read (injected for tests).
    public let environment: [String: String]

    /// Creates an authenticator.
    public init(
        client: XAPIClient, store: CredentialStore, environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.client = client
        self.store = store
        self.environment = environment
    }

    /// Finds a token (X_BEARER_TOKEN, BEARER_TOKEN, the credentials file, then CONSUMER_KEY and CONSUMER_SECRET
    /// exchanged and stored), installs it in the client and says where it came from.
    /// Throws `XAPIError.missingCredentials` when there is none.
    public func resolve(warn: (String) -> Void = { _ in }) async throws -> CredentialSource {
        for source in [CredentialSource.xBearerTokenVariable, .bearerTokenVariable] {
            if let token = environment[source.rawValue].flatMap(BearerToken.init) {
                client.setToken(token)
                return source
            }
        }
        if let token = try store.loadToken(warn: warn) {
            client.setToken(token)
            return .credentialsFile
        }
        if let key = environment["CONSUMER_KEY"], let secret = environment["CONSUMER_SECRET"], !key.isEmpty,
            !secret.isEmpty
        {
            let token = try await exchange(consumerKey: key, consumerSecret: secret)
            try store.save(token)
            client.setToken(token)
            return .consumerKeyExchange
        }
        throw XAPIError.missingCredentials
    }

    /// Exchanges a consumer key and secret for the app's bearer token at `POST /oauth2/token`.
    ///
    /// Does not install the token; `signIn` does, after verifying it.
    public func exchange(consumerKey: String, consumerSecret: String) async throws -> BearerToken {
        let response = try await client.perform(
            method: "POST", path: "/oauth2/token", endpoint: "POST /oauth2/token",
            form: [("grant_type", "client_credentials")],
            authorization: .basic(key: consumerKey, secret: consumerSecret))
        guard let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any] else {
            throw XAPIError.tokenExchangeFailed("the answer was not JSON")
        }
        guard let type = object["token_type"] as? String, type.lowercased() == "bearer" else {
            throw XAPIError.tokenExchangeFailed(
                "token_type was \((object["token_type"] as? String).map { "\"\($0)\"" } ?? "missing"), not \"bearer\"")
        }
        guard let token = (object["access_token"] as? String).flatMap(BearerToken.init) else {
            throw XAPIError.tokenExchangeFailed("access_token was missing")
        }
        return token
    }

    /// Checks the client's token with one cheap call (a user lookup). Throws the call's error (401 for a bad token).
    public func verify() async throws {
        _ = try await client.get(
            "/2/users/by/username/\(Self.probeUsername)", endpoint: "GET /2/users/by/username/:username")
    }

    /// Exchanges the key and secret, verifies the token, stores it 0600 and installs it in the client.
    @discardableResult
    public func signIn(consumerKey: String, consumerSecret: String) async throws -> BearerToken {
        let token = try await exchange(consumerKey: consumerKey, consumerSecret: consumerSecret)
        try await signIn(bearer: token)
        return token
    }

    /// Verifies a pasted bearer token, then stores it and installs it in the client; the old token stays on failure.
    public func signIn(bearer token: BearerToken) async throws {
        let previous = XAPIClientTokenSnapshot(client: client)
        client.setToken(token)
        do {
            try await verify()
        } catch {
            previous.restore()
            throw error
        }
        try store.save(token)
    }

    /// Removes the stored token and forgets it in the client; with a consumer key and secret, also asks X to
    /// invalidate it. Invalidation is best effort: its failure is reported, never thrown.
    public func logout(consumerKey: String? = nil, consumerSecret: String? = nil) async throws -> LogoutResult {
        let token = try? store.loadToken()
        let removed = try store.remove()
        let current = XAPIClientTokenSnapshot(client: client).token ?? token
        client.setToken(nil)
        guard let current, let consumerKey, let consumerSecret else {
            return LogoutResult(removedFile: removed, invalidated: nil)
        }
        do {
            _ = try await client.perform(
                method: "POST", path: "/oauth2/invalidate_token", endpoint: "POST /oauth2/invalidate_token",
                form: [("access_token", current.revealForAuthorizationHeader())],
                authorization: .basic(key: consumerKey, secret: consumerSecret))
            return LogoutResult(removedFile: removed, invalidated: true)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            return LogoutResult(removedFile: removed, invalidated: false)
        }
    }
}

/// The client's token at one moment, to put back if a sign-in fails.
private struct XAPIClientTokenSnapshot {
    let client: XAPIClient
    let token: BearerToken?

    init(client: XAPIClient) {
        self.client = client
        self.token = client.currentToken()
    }

    func restore() { client.setToken(token) }
}
