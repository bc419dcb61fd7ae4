import Foundation
import LineEditor
import XAPI

extension ShellSession {
    /// `auth`, `auth status`, `auth logout`. Secrets are read without echo and never reach history or output;
    /// only the masked token is ever shown.
    func auth(_ action: AuthAction, reader: (any LineReader)?) async -> CommandStatus {
        switch action {
        case .status:
            return await authStatus()
        case .logout:
            do {
                let result = try await authenticator.logout(
                    consumerKey: environment["CONSUMER_KEY"],
                    consumerSecret: environment["CONSUMER_SECRET"])
                sources.api = nil
                credentials.origin = nil
                if sources.current == .x { sources.current = .local }
                var message = result.removedFile ? "removed the stored token" : "no stored token to remove"
                switch result.invalidated {
                case true?: message += "; X invalidated it"
                case false?:
                    message += "; X could not be asked to invalidate it (it stays valid until you regenerate it)"
                case nil: break
                }
                output.line(message)
                return .ok
            } catch {
                output.error(ErrorText.describe(error))
                return .failed
            }
        case .interactive:
            guard let reader else {
                output.error("auth needs input: run it in the shell, or set X_BEARER_TOKEN")
                return .failed
            }
            return await interactiveSignIn(reader)
        }
    }

    /// `auth status`: the token masked and where it came from, what the API says of it (one cheap call), the API base,
    /// and every credential found at start-up that could not be used.
    private func authStatus() async -> CommandStatus {
        var healthy = true
        if let masked = client.maskedToken {
            let origin = credentials.origin.map { " (from \($0.rawValue))" } ?? ""
            output.line("credentials: bearer token \(masked)\(origin)")
            do {
                try await authenticator.verify()
                output.line("the API accepted it")
            } catch is CancellationError {
                output.note("cancelled")
                return .failed
            } catch {
                healthy = false
                output.line("the API did not accept it: \(ErrorText.describe(error))")
            }
        } else {
            output.line("credentials: none (run 'auth' to add a bearer token, or a key and secret)")
        }
        for problem in credentials.problems {
            healthy = false
            output.line("unusable: \(problem)")
        }
        output.line("API base: \(client.configuration.settings.baseURL.absoluteString)")
        return healthy ? .ok : .failed
    }

    private func interactiveSignIn(_ reader: any LineReader) async -> CommandStatus {
        output.note(
            "Paste an app bearer token, or press Enter to use an API key and secret instead. Nothing is echoed.")
        guard case .line(let tokenText) = (try? reader.readSecret(prompt: "bearer token: ")) ?? .endOfInput else {
            output.note("auth cancelled")
            return .failed
        }
        spinner.start("verifying…")
        defer { spinner.stop() }
        do {
            let trimmed = tokenText.trimmingCharacters(in: .whitespaces)
            if !trimmed.isEmpty {
                guard let token = BearerToken(trimmed) else {
                    output.error("that does not look like a bearer token")
                    return .failed
                }
                try await authenticator.signIn(bearer: token)
            } else {
                spinner.stop()
                guard case .line(let key) = (try? reader.readSecret(prompt: "API key: ")) ?? .endOfInput,
                    case .line(let secret) = (try? reader.readSecret(prompt: "API key secret: ")) ?? .endOfInput,
                    !key.isEmpty, !secret.isEmpty
                else {
                    output.note("auth cancelled")
                    return .failed
                }
                spinner.start("exchanging the key and secret for a bearer token…")
                try await authenticator.signIn(
                    consumerKey: key.trimmingCharacters(in: .whitespaces),
                    consumerSecret: secret.trimmingCharacters(in: .whitespaces))
            }
            sources.api = XAPISource(client: client, cache: store)
            credentials.origin = trimmed.isEmpty ? .consumerKeyExchange : .credentialsFile
            output.line(
                "signed in: bearer token \(client.maskedToken ?? "?") verified and saved to \(authenticator.store.fileURL.path) (0600)"
            )
            output.note("searches go to \(sources.current.rawValue); 'source x' sends them to the X API")
            return .ok
        } catch is CancellationError {
            output.note("cancelled")
            return .failed
        } catch {
            output.error(ErrorText.describe(error))
            return .failed
        }
    }
}
