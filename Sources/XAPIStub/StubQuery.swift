import Foundation
import TweetKit

/// A search query in a useful subset of X's syntax, parsed well enough for tests: keywords, `"phrases"`, `#tags`,
/// `@mentions`, `from:`, `to:`, `conversation_id:`, `is:retweet|reply|quote|verified`,
/// `has:media|mentions|hashtags|cashtags|links`, `retweets_of:`, `in_reply_to_tweet_id:`, `quotes_of_tweet_id:`,
/// `retweets_of_tweet_id:`, `lang:`, `-` negation, `OR` and parentheses (AND binds tighter than OR).
///
/// Errors carry a 1-based `(at position N)` like the API's, so the client's 400 handling is tested on real output.
indirect enum StubQuery {
    case term(String)
    case not(StubQuery)
    case and([StubQuery])
    case or([StubQuery])

    struct ParseError: Error {
        var message: String
        var position: Int
    }

    static func parse(_ text: String) throws -> StubQuery {
        var parser = Parser(scalars: Array(text.unicodeScalars))
        let query = try parser.parseOr()
        parser.skipSpaces()
        if parser.index < parser.scalars.count {
            throw ParseError(message: "Unexpected `)`", position: parser.index + 1)
        }
        if query.isOnlyFilters {
            throw ParseError(
                message: "Reference to a standalone operator is not allowed: use it together with a keyword",
                position: 1)
        }
        return query
    }

    func matches(_ tweet: Tweet, in corpus: StubCorpus) -> Bool {
        switch self {
        case .and(let parts): return parts.allSatisfy { $0.matches(tweet, in: corpus) }
        case .or(let parts): return parts.contains { $0.matches(tweet, in: corpus) }
        case .not(let inner): return !inner.matches(tweet, in: corpus)
        case .term(let term): return Self.matchTerm(term, tweet: tweet, corpus: corpus)
        }
    }

    private var isOnlyFilters: Bool {
        switch self {
        case .term(let term):
            let lower = term.lowercased()
            return lower.hasPrefix("is:") || lower.hasPrefix("has:") || lower.hasPrefix("lang:")
        case .not(let inner): return inner.isOnlyFilters
        case .and(let parts), .or(let parts): return parts.allSatisfy(\.isOnlyFilters)
        }
    }

    private static func matchTerm(_ term: String, tweet: Tweet, corpus: StubCorpus) -> Bool {
        let text = tweet.text.lowercased()
        let lower = term.lowercased()
        if let colon = lower.firstIndex(of: ":"), !lower.hasPrefix("\"") {
            let name = lower[..<colon]
            let value = String(lower[lower.index(after: colon)...])
            let author = tweet.authorID.flatMap { corpus.user($0) }
            switch name {
            case "from": return author?.username.lowercased() == value || tweet.authorID?.description == value
            case "to":
                let target = tweet.inReplyToUserID.flatMap { corpus.user($0) }
                return target?.username.lowercased() == value || tweet.inReplyToUserID?.description == value
            case "conversation_id": return tweet.conversationID?.description == value
            case "lang": return tweet.lang?.lowercased() == value
            case "is":
                switch value {
                case "retweet": return tweet.retweetedID != nil
                case "reply": return tweet.repliedToID != nil
                case "quote": return tweet.quotedID != nil
                case "verified": return author?.verified == true
                default: return false  // nullcast: the fixtures hold no promoted-only posts
                }
            case "has":
                switch value {
                case "media", "images": return !tweet.mediaKeys.isEmpty
                case "mentions": return !tweet.entities.mentions.isEmpty
                case "hashtags": return !tweet.entities.hashtags.isEmpty
                case "cashtags": return !tweet.entities.cashtags.isEmpty
                case "links": return !tweet.entities.urls.isEmpty
                default: return false
                }
            case "retweets_of":
                let original = tweet.retweetedID.flatMap(corpus.tweet)?.authorID.flatMap { corpus.user($0) }
                return original?.username.lowercased() == value || original?.id.description == value
            case "in_reply_to_tweet_id", "in_reply_to_status_id": return tweet.repliedToID?.description == value
            case "quotes_of_tweet_id", "quotes_of_status_id": return tweet.quotedID?.description == value
            case "retweets_of_tweet_id", "retweets_of_status_id": return tweet.retweetedID?.description == value
            default: break
            }
        }
        if lower.hasPrefix("#") {
            return tweet.entities.hashtags.contains { "#" + $0.tag.lowercased() == lower } || text.contains(lower)
        }
        if lower.hasPrefix("\"") {
            return text.contains(lower.trimmingCharacters(in: CharacterSet(charactersIn: "\"")))
        }
        return text.contains(lower)
    }

    private struct Parser {
        var scalars: [Unicode.Scalar]
        var index = 0

        mutating func skipSpaces() {
            while index < scalars.count, scalars[index] == " " { index += 1 }
        }

        mutating func parseOr() throws -> StubQuery {
            var parts = [try parseAnd()]
            while true {
                skipSpaces()
                guard peekWord() == "OR" else { break }
                index += 2
                parts.append(try parseAnd())
            }
            return parts.count == 1 ? parts[0] : .or(parts)
        }

        mutating func parseAnd() throws -> StubQuery {
            var parts: [StubQuery] = []
            while true {
                skipSpaces()
                guard index < scalars.count, scalars[index] != ")", peekWord() != "OR" else { break }
                parts.append(try parseUnary())
            }
            guard !parts.isEmpty else {
                throw ParseError(message: "Expected a keyword or operator", position: index + 1)
            }
            return parts.count == 1 ? parts[0] : .and(parts)
        }

        mutating func parseUnary() throws -> StubQuery {
            if scalars[index] == "-" {
                let start = index
                index += 1
                guard index < scalars.count, scalars[index] != " " else {
                    throw ParseError(message: "Expected a term after `-`", position: start + 1)
                }
                if scalars[index] == "(" {
                    throw ParseError(message: "Negating a group is not allowed", position: start + 1)
                }
                return .not(try parsePrimary())
            }
            return try parsePrimary()
        }

        mutating func parsePrimary() throws -> StubQuery {
            let start = index
            if scalars[index] == "(" {
                index += 1
                let inner = try parseOr()
                skipSpaces()
                guard index < scalars.count, scalars[index] == ")" else {
                    throw ParseError(message: "Missing closing parenthesis for the group opened", position: start + 1)
                }
                index += 1
                return inner
            }
            if scalars[index] == "\"" {
                index += 1
                while index < scalars.count, scalars[index] != "\"" { index += 1 }
                guard index < scalars.count else {
                    throw ParseError(message: "Missing closing quote for the phrase opened", position: start + 1)
                }
                index += 1
                return .term(String(String.UnicodeScalarView(scalars[start..<index])))
            }
            while index < scalars.count, scalars[index] != " ", scalars[index] != ")", scalars[index] != "(" {
                index += 1
            }
            let word = String(String.UnicodeScalarView(scalars[start..<index]))
            if word.hasSuffix(":") {
                throw ParseError(message: "Operator `\(word)` needs a value", position: start + 1)
            }
            return .term(word)
        }

        func peekWord() -> String? {
            guard index + 1 < scalars.count, scalars[index] == "O", scalars[index + 1] == "R" else { return nil }
            let after = index + 2
            return after == scalars.count || scalars[after] == " " || scalars[after] == "(" ? "OR" : nil
        }
    }
}
