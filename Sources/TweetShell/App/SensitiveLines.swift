import Foundation

/// What counts as a secret on a command line, precisely, so that real searches (a sha256, an Ethereum address, a long
/// word) are never refused while the user's credentials never reach the API, the history file or the store.
///
/// Two kinds of word are secrets:
/// - **the user's own credentials**: the bearer token in use (whole, percent-decoded, or a prefix long enough to give
///   it away) and the consumer key and secret from the environment;
/// - **bearer-token shapes**: a word of 40 or more token characters that starts with a run of `A`s, as every app token
///   does, or that carries the escapes tokens carry (`%2B`, `%3D`, `%2F`).
public enum SensitiveLines {
    /// The characters a bearer token is made of.
    static let tokenCharacters = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789%+/=_-")

    /// True when `line` must not be written to history: `auth` with anything after it but `status`/`logout`, a word
    /// holding one of the user's own credentials (`isOwnSecret`), or a word shaped like a bearer token.
    public static func isSensitive(_ line: String, isOwnSecret: (String) -> Bool = { _ in false }) -> Bool {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        if let first = words.first, first.lowercased() == "auth", words.count > 1,
            !(words.count == 2 && ["status", "logout"].contains(words[1].lowercased()))
        {
            return true
        }
        return words.contains { isOwnSecret($0) || hasBearerShape($0) }
    }

    /// Whether a word looks like a bearer token (quotes and brackets around it are ignored). A hex digest, an
    /// Ethereum address or a long ordinary word does not: they have no `A`-run prefix and no `%` escapes.
    public static func hasBearerShape(_ word: String) -> Bool {
        let core = word.trimmingCharacters(in: CharacterSet(charactersIn: "\"'()[]{},;"))
        guard core.count >= 40, core.allSatisfy({ tokenCharacters.contains($0) }) else { return false }
        if core.hasPrefix("AAAAAAAA") { return true }
        let upper = core.uppercased()
        return upper.contains("%2B") || upper.contains("%3D") || upper.contains("%2F")
    }

    /// The words of a query, outside double quotes, that look like bearer tokens. A quoted word is the user saying
    /// "search for exactly this", so it is not judged.
    public static func bearerShapedWords(in query: String) -> [String] {
        var words: [String] = []
        var current = ""
        var quoted = false
        func flush() {
            if !current.isEmpty { words.append(current) }
            current = ""
        }
        for character in query {
            if character == "\"" {
                flush()
                quoted.toggle()
            } else if quoted {
                continue
            } else if character == " " || character == "\t" {
                flush()
            } else {
                current.append(character)
            }
        }
        flush()
        return words.filter(hasBearerShape)
    }
}

/// The user's own credentials as the shell knows them now: the client's token (asked without revealing it) and the
/// consumer key and secret from the environment.
struct OwnSecrets: Sendable {
    /// Whether a word holds the token in use.
    let tokenIsHeld: @Sendable (String) -> Bool
    /// `CONSUMER_KEY` and `CONSUMER_SECRET`, when set.
    let environmentSecrets: [String]

    init(tokenIsHeld: @escaping @Sendable (String) -> Bool, environment: [String: String]) {
        self.tokenIsHeld = tokenIsHeld
        environmentSecrets = ["CONSUMER_KEY", "CONSUMER_SECRET"].compactMap { environment[$0] }
            .filter { $0.count >= 8 }
    }

    /// Whether `word` holds one of the credentials.
    func isHeld(in word: String) -> Bool {
        tokenIsHeld(word) || environmentSecrets.contains { word.contains($0) }
    }

    /// Whether any word of `text` holds one of the credentials (the whole text too, for a token split by nothing).
    func appear(in text: String) -> Bool {
        isHeld(in: text) || text.split(whereSeparator: \.isWhitespace).contains { isHeld(in: String($0)) }
    }

    /// `SensitiveLines.isSensitive` with these credentials.
    func isSensitive(_ line: String) -> Bool {
        SensitiveLines.isSensitive(line, isOwnSecret: isHeld(in:))
    }
}
