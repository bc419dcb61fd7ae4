import Foundation
import TweetStore

/// A tweet's index document as `tsvector` lexemes: the SQLite store's six FTS5 columns in one vector, each column's
/// tokens marked by a leading character that the tokenizer never keeps (`#tag`, `$cash`, `@name`, `/url`, `~a123`),
/// so `#swift` and the word `swift` stay apart as they do in separate FTS5 columns.
///
/// Positions count tokens across the whole document, so a phrase (`<->`) matches consecutive tokens of one column: its
/// lexemes all carry that column's mark.
enum SearchDocument {
    /// The mark of each column's lexemes.
    enum Column: String, CaseIterable {
        case body = ""
        case tags = "#"
        case cashtags = "$"
        case mentions = "@"
        case urls = "/"
        case refs = "~"

        init?(fts5 name: String) {
            switch name {
            case "body": self = .body
            case "tags": self = .tags
            case "cashtags": self = .cashtags
            case "mentions": self = .mentions
            case "urls": self = .urls
            case "refs": self = .refs
            default: return nil
            }
        }
    }

    /// PostgreSQL keeps positions up to this; later tokens share it (they still match as words). `DocumentVector`
    /// builds the documents.
    static let lastPosition = 16_383
    /// PostgreSQL refuses longer lexemes; FTS5 keeps them, but no query can name a token this long anyway.
    static let longestLexeme = 2_046

    /// A lexeme quoted for `tsvector` and `tsquery` input.
    static func quoted(_ lexeme: String) -> String {
        // Index tokens never hold either character (the tokenizer splits at both), so the common case copies once.
        guard lexeme.utf8.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "'") }) else {
            return "'" + lexeme + "'"
        }
        var quoted = "'"
        for scalar in lexeme.unicodeScalars {
            switch scalar {
            case "\\": quoted += "\\\\"
            case "'": quoted += "''"
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "'"
    }
}
