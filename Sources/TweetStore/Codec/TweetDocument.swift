import Foundation
import TweetKit

/// What the full-text index holds for one tweet, one string per FTS5 column.
///
/// The index is contentless (it keeps no copy of the text), so removing a tweet's entry means handing FTS5 exactly the
/// values indexed before. They are therefore computed only from what the tweet's own row keeps, by this one function.
package struct TweetDocument: Equatable, Sendable {
    package var body: String
    package var tags: String
    package var cashtags: String
    package var mentions: String
    package var urls: String
    /// Who wrote it, to whom it replies and which conversation it belongs to, as tokens (`a<author id>`,
    /// `r<user id>`, `c<conversation id>`) that `from:`, `to:` and `conversation_id:` look up, and the tweet it replies
    /// to (`p<tweet id>`), by which `thread` finds the replies of sources that have no conversation ids (archives).
    ///
    ///
    /// These live in the full-text index rather than in B-tree indexes on `tweets` because FTS5 merges new entries in
    /// sorted segments: random author ids cost an import almost nothing there, while a B-tree index on them dirtied
    /// a page per tweet and made a 1M-tweet import spend a third of its time writing index pages.
    package var refs: String

    /// The document of `tweet`. Without `rootConversationToken`, a tweet that starts its own conversation (or whose
    /// conversation is unknown) gets no `c<its own id>` token: the PostgreSQL store finds such a root by id instead,
    /// since those tokens, one term per tweet, were 600k keys of its GIN build at 1M tweets. This store keeps them
    /// (see `refs`).
    package init(_ tweet: Tweet, rootConversationToken: Bool = true) {
        let text = Self.unescapeHTML(tweet.text)
        // Chinese, Japanese, Korean and Thai runs become overlapping bigrams (see `ScriptNGrams`).
        body = ScriptNGrams.indexText(text)
        let entities = tweet.entities
        if entities.isEmpty {
            // Sources without entities (older archives, hand-made files): find the obvious ones in the text.
            tags = Self.scan(text, prefix: "#")
            cashtags = Self.scan(text, prefix: "$")
            mentions = Self.scan(text, prefix: "@")
        } else {
            tags = Self.spaced(entities.hashtags) { $0.tag }
            cashtags = Self.spaced(entities.cashtags) { $0.tag }
            mentions = Self.spaced(entities.mentions) { $0.username }
        }
        urls = Self.spaced(entities.urls) { $0.expandedURL ?? $0.url }
        refs = Self.refs(tweet, rootConversationToken: rootConversationToken)
    }

    /// The `refs` tokens of a tweet. A tweet whose conversation is unknown counts as the start of its own, so
    /// `conversation_id:` still finds it as the root of its replies.
    ///
    /// Leaving out the root's own token (600k of the 1.36M terms of the 1M benchmark index) did not make this store's
    /// import faster, side by side, and would need the whole index made again in every store, since a contentless
    /// index removes an entry only with the tokens it was indexed with (docs/benchmarks.md, "Conversation roots by
    /// id").
    ///
    /// The digits are written as bytes: four string interpolations per tweet were 1% of an import.
    static func refs(_ tweet: Tweet, rootConversationToken: Bool) -> String {
        var tokens: [UInt8] = []
        tokens.reserveCapacity(4 * 22)
        func token(_ kind: Character, _ value: UInt64, spaceAfter: Bool) {
            tokens.append(kind.asciiValue!)
            let start = tokens.count
            var rest = value
            repeat {
                tokens.append(UInt8(ascii: "0") + UInt8(rest % 10))
                rest /= 10
            } while rest > 0
            tokens[start...].reverse()
            if spaceAfter { tokens.append(UInt8(ascii: " ")) }
        }
        if let author = tweet.authorID { token("a", author.rawValue, spaceAfter: true) }
        if let user = tweet.inReplyToUserID { token("r", user.rawValue, spaceAfter: true) }
        if let parent = tweet.repliedToID { token("p", parent.rawValue, spaceAfter: true) }
        let conversation = tweet.conversationID ?? tweet.id
        if rootConversationToken || conversation != tweet.id { token("c", conversation.rawValue, spaceAfter: false) }
        return String(decoding: tokens, as: UTF8.self)
    }

    /// The items' texts joined by single spaces, as `joined(separator: " ")` gives, without the array of strings in
    /// between; most lists are empty or hold one item, which comes back as it is.
    private static func spaced<Item>(_ items: [Item], _ text: (Item) -> String) -> String {
        guard let first = items.first else { return "" }
        guard items.count > 1 else { return text(first) }
        var joined = text(first)
        for item in items.dropFirst() {
            joined += " "
            joined += text(item)
        }
        return joined
    }

    /// The `refs` token `from:` looks for.
    package static func authorToken(_ id: UInt64) -> String { "a\(id)" }
    /// The `refs` token `to:` looks for.
    package static func replyToken(_ id: UInt64) -> String { "r\(id)" }
    /// The `refs` token of the replies to a tweet.
    package static func parentToken(_ id: UInt64) -> String { "p\(id)" }
    /// The `refs` token `conversation_id:` looks for.
    package static func conversationToken(_ id: UInt64) -> String { "c\(id)" }

    /// The API escapes only these; decoding them keeps `AT&amp;T` from indexing the word "amp".
    ///
    /// One pass over the UTF-8 bytes. It gives what replacing `&lt;`, `&gt;`, `&quot;` and `&#39;` and then `&amp;`
    /// one after another gave (no replacement makes a new `&`, and `&amp;` comes out as a `&` that is not read again),
    /// which an index built before needs, but without the five Foundation searches that took 2% of an import.
    static func unescapeHTML(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
        var text = text
        return text.withUTF8 { bytes in
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count)
            var index = 0
            scanning: while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "&") {
                    for (name, replacement) in entities where matches(name, in: bytes, at: index + 1) {
                        output.append(replacement)
                        index += 1 + name.count
                        continue scanning
                    }
                }
                output.append(byte)
                index += 1
            }
            return String(decoding: output, as: UTF8.self)
        }
    }

    /// The entities `unescapeHTML` decodes, without their `&`, and the byte each stands for.
    private static let entities: [([UInt8], UInt8)] = [
        (Array("lt;".utf8), UInt8(ascii: "<")), (Array("gt;".utf8), UInt8(ascii: ">")),
        (Array("quot;".utf8), UInt8(ascii: "\"")), (Array("#39;".utf8), UInt8(ascii: "'")),
        (Array("amp;".utf8), UInt8(ascii: "&")),
    ]

    private static func matches(_ name: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        guard start + name.count <= bytes.count else { return false }
        for offset in name.indices where bytes[start + offset] != name[offset] { return false }
        return true
    }

    /// Words that follow `prefix` at the start of a word, made of letters, digits and `_`.
    static func scan(_ text: String, prefix: Character) -> String {
        guard let byte = prefix.asciiValue, text.utf8.contains(byte) else { return "" }
        var found: [Substring] = []
        var index = text.startIndex
        while let mark = text[index...].firstIndex(of: prefix) {
            let start = text.index(after: mark)
            var end = start
            while end < text.endIndex, text[end].isLetter || text[end].isNumber || text[end] == "_" {
                end = text.index(after: end)
            }
            let atWordStart =
                mark == text.startIndex
                || !(text[text.index(before: mark)].isLetter || text[text.index(before: mark)].isNumber)
            if end > start, atWordStart { found.append(text[start..<end]) }
            index = end > start ? end : start
        }
        return found.joined(separator: " ")
    }
}
