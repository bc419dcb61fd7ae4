import Foundation

/// An app-only bearer token.
///
/// The value is reachable only through `revealForAuthorizationHeader()`, and every way Swift has of printing a value
/// (`description`, `debugDescription`, `dump`, string interpolation, reflection) shows the masked form, so a token that
/// ends up in an error, a log line or a debugger print cannot leak in full.
public struct BearerToken: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable
{
    private let secret: String

    /// Wraps a token, trimming whitespace a paste or a file may add; nil for an empty string, and for one holding
    /// spaces, control or non-ASCII characters, which no X token has and which could forge extra header lines.
    public init?(_ value: String) {
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        self.secret = trimmed
    }

    /// The first four characters and an ellipsis: enough to tell two tokens apart, useless to an attacker.
    public var masked: String { Self.mask(secret) }

    /// The raw value, for the `Authorization` header and the credentials file only. The long name is deliberate.
    public func revealForAuthorizationHeader() -> String { secret }

    /// The masked form.
    public var description: String { masked }
    /// The masked form.
    public var debugDescription: String { "BearerToken(\(masked))" }
    /// Reflection shows only the masked form, so `dump` and debuggers do not reveal the value.
    public var customMirror: Mirror { Mirror(self, children: ["masked": masked], displayStyle: .struct) }

    /// Masks any secret: first four characters and `…`; short secrets are masked entirely.
    public static func mask(_ secret: String) -> String {
        secret.count <= 8 ? "…" : String(secret.prefix(4)) + "…"
    }

    /// The shortest prefix of a token that counts as the token: every app token starts with a run of `A`s, so a shorter
    /// prefix says nothing about this one.
    public static let revealingPrefixLength = 24

    /// Whether `word` holds this token (as stored or percent-decoded, `%2B` as `+`), or is a prefix of it at least
    /// `revealingPrefixLength` characters long: a paste cut short still gives most of the secret away.
    public func isHeld(in word: String) -> Bool {
        let decoded = secret.removingPercentEncoding ?? secret
        if word.contains(secret) || word.contains(decoded) { return true }
        guard word.count >= Self.revealingPrefixLength else { return false }
        return secret.hasPrefix(word) || decoded.hasPrefix(word)
    }

    /// Replaces every occurrence of this token in `text` with its masked form: the last line of defence for text that
    /// came from elsewhere (a server's error body, an underlying error's description).
    public func redact(_ text: String) -> String {
        text.contains(secret) ? text.replacingOccurrences(of: secret, with: masked) : text
    }
}
