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

/// Credentials in the environment that the API would not take: which variables, and what it answered.
public struct EnvironmentCredentialError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The variables, e.g. `CONSUMER_KEY and CONSUMER_SECRET`.
    public var variables: String
    /// The API's answer (or why it could not be asked), as a sentence.
    public var answer: String

    /// Creates an error.
    public init(variables: String, answer: String) {
        self.variables = variables
        self.answer = answer
    }

    /// `CONSUMER_KEY and CONSUMER_SECRET from the environment could not be used: <answer>`.
    public var description: String { "\(variables) from the environment could not be used: \(answer)" }
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
    ///
    /// A variable that is set but cannot be used is never dropped silently: a token variable that is not a token, or
    /// only one of the key and secret, is passed to `warn` naming the variable, and the search goes on. A key and
    /// secret the API refuses throw `EnvironmentCredentialError`, which names the variables and says what the API
    /// answered. Throws `XAPIError.missingCredentials` when there is nothing at all.
    public func resolve(warn: (String) -> Void = { _ in }) async throws -> CredentialSource {
        for source in [CredentialSource.xBearerTokenVariable, .bearerTokenVariable] {
            guard let value = environment[source.rawValue], !value.trimmingCharacters(in: .whitespaces).isEmpty else {
                continue
            }
            guard let token = BearerToken(value) else {
                warn(
                    "\(source.rawValue) is set but is not a bearer token (it holds spaces, control or non-ASCII "
                        + "characters), so it was ignored")
                continue
            }
            client.setToken(token)
            return source
        }
        if let token = try store.loadToken(warn: warn) {
            client.setToken(token)
            return .credentialsFile
        }
        let key = environment["CONSUMER_KEY"].flatMap { $0.isEmpty ? nil : $0 }
        let secret = environment["CONSUMER_SECRET"].flatMap { $0.isEmpty ? nil : $0 }
        switch (key, secret) {
        case (let key?, let secret?):
            let token: BearerToken
            do {
                token = try await exchange(consumerKey: key, consumerSecret: secret)
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                throw EnvironmentCredentialError(
                    variables: "CONSUMER_KEY and CONSUMER_SECRET", answer: redactingSecrets(in: "\(error)"))
            }
            try store.save(token)
            client.setToken(token)
            return .consumerKeyExchange
        case (_?, nil):
            warn("CONSUMER_KEY is set but CONSUMER_SECRET is not; both are needed to get a bearer token")
        case (nil, _?):
            warn("CONSUMER_SECRET is set but CONSUMER_KEY is not; both are needed to get a bearer token")
        case (nil, nil):
            break
        }
        throw XAPIError.missingCredentials
    }

    /// `text` with the environment's consumer secret masked, should an answer ever echo it.
    private func redactingSecrets(in text: String) -> String {
        guard let secret = environment["CONSUMER_SECRET"], secret.count >= 4, text.contains(secret) else { return text }
        return text.replacingOccurrences(of: secret, with: BearerToken.mask(secret))
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
