import Foundation
import TweetKit
import TweetStore

/// Rows in COPY's text format: fields separated by tabs, `\N` for NULL, and backslash escapes for the characters the
/// format reserves. `bytea` goes as `\x` and hex digits (its own escape doubled for COPY).
struct CopyRows {
    private(set) var bytes: [UInt8] = []
    private var fieldsInRow = 0

    /// A text field; a NUL (which PostgreSQL text cannot hold) is dropped.
    mutating func text(_ value: String?) {
        separate()
        guard let value else { return null() }
        for byte in value.utf8 {
            switch byte {
            case 0: continue
            case UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case UInt8(ascii: "\t"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case UInt8(ascii: "\n"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case UInt8(ascii: "\r"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            default: bytes.append(byte)
            }
        }
    }

    /// An integer field.
    mutating func integer(_ value: Int64?) {
        separate()
        guard let value else { return null() }
        bytes += Array(String(value).utf8)
    }

    /// A `bytea` field; empty or nil is NULL.
    mutating func blob(_ value: [UInt8]?) {
        separate()
        guard let value, !value.isEmpty else { return null() }
        bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\"), UInt8(ascii: "x")]
        for byte in value {
            bytes.append(Self.digits[Int(byte >> 4)])
            bytes.append(Self.digits[Int(byte & 0xF)])
        }
    }

    /// Ends the row.
    mutating func endRow() {
        bytes.append(UInt8(ascii: "\n"))
        fieldsInRow = 0
    }

    private static let digits = Array("0123456789abcdef".utf8)

    private mutating func null() { bytes += [UInt8(ascii: "\\"), UInt8(ascii: "N")] }

    private mutating func separate() {
        if fieldsInRow > 0 { bytes.append(UInt8(ascii: "\t")) }
        fieldsInRow += 1
    }
}

/// One batch's tweets as two binary COPY streams: their `tweets` rows (`TweetRow.columns`) and, for those that have
/// one, their compressed originals (`TweetRow.originalColumns`), which `tweet_originals` keeps.
struct TweetStreams: Sendable {
    /// The `tweets` rows.
    private(set) var rows = BinaryCopyRows()
    /// The `tweet_originals` rows.
    private(set) var originals = BinaryCopyRows()
    /// How many tweets; the streams are empty when this is zero.
    private(set) var count = 0
    /// How many of the tweets have an original.
    private(set) var originalCount = 0

    /// Whether there is no tweet.
    var isEmpty: Bool { count == 0 }

    /// Adds a tweet whose row `write` appends to `rows`, with its original and the key of its `__twarc` block if it
    /// has an original (a block is kept only beside one, as in the SQLite store).
    mutating func add(id: Int64, original: [UInt8]?, twarc: Int64?, row write: (inout BinaryCopyRows) -> Void) {
        count += 1
        rows.startRow()
        write(&rows)
        rows.endRow()
        guard let original, !original.isEmpty else { return }
        originalCount += 1
        originals.startRow()
        originals.integer(id)
        originals.blob(original)
        originals.integer(twarc)
        originals.endRow()
    }
}

/// One tweet as the `tweets` row holds it: the same columns and encodings as the SQLite store (`TweetRecord`), plus
/// its `tsvector` document, and its compressed original beside it for `tweet_originals`.
struct TweetRow {
    let tweet: Tweet
    let primary: Bool
    let original: [UInt8]?
    /// The `TwarcBlockKey` of the `__twarc` block of the page the tweet came in, when it had one.
    var twarc: Int64? = nil

    /// The columns of `tweets` that a batch's COPY fills, in order.
    static let columns =
        "id, author_id, created_at, conversation_id, reply_to_user, lang, flags, likes, reposts, replies, quotes, "
        + "text, extra, doc"

    /// The columns of `tweet_originals`, in order.
    static let originalColumns = "id, original, twarc"

    /// The columns a search reads, in the order `tweet(from:)` expects.
    static let selected =
        "t.id, t.author_id, t.created_at, t.conversation_id, t.reply_to_user, t.lang, t.flags, "
        + "t.likes, t.reposts, t.replies, t.quotes, t.text, t.extra"

    func append(to streams: inout TweetStreams, documents: inout DocumentVector) {
        let id = Int64(bitPattern: tweet.id.rawValue)
        streams.add(id: id, original: original, twarc: twarc) { rows in
            rows.integer(id)
            rows.integer(tweet.authorID.map { Int64(bitPattern: $0.rawValue) })
            rows.integer(tweet.createdAt.map(TweetRecord.milliseconds))
            // As in SQLite, a conversation that starts here is NULL plus the `startsConversation` flag.
            rows.integer(tweet.conversationID.flatMap { $0 == tweet.id ? nil : Int64(bitPattern: $0.rawValue) })
            rows.integer(tweet.inReplyToUserID.map { Int64(bitPattern: $0.rawValue) })
            rows.text(tweet.lang)
            let flags = TweetRecord.flags(for: tweet, includedOnly: !primary)
            rows.integer(flags.rawValue)
            let metrics = tweet.metrics
            rows.integer(Int64(metrics?.likes ?? 0))
            rows.integer(Int64(metrics?.retweets ?? 0))
            rows.integer(Int64(metrics?.replies ?? 0))
            rows.integer(Int64(metrics?.quotes ?? 0))
            rows.text(tweet.text)
            rows.blob(TweetRecord.encodeExtra(tweet))
            // A tweet stored only because another refers to it is never a search result, so it has no document.
            if primary {
                documents.write(
                    TweetDocument(tweet, rootConversationToken: false),
                    extra: SearchDocument.filterLexemes(flags: flags, lang: tweet.lang), to: &rows)
            } else {
                rows.tsvector(count: 0) { _ in }
            }
        }
    }

    /// Reads a row selected with `selected`.
    static func tweet(from row: PGRow) throws -> Tweet {
        let id = TweetID(UInt64(bitPattern: row.int64(0)))
        let flags = TweetFlags(rawValue: row.int64(6))
        var tweet = Tweet(id: id, text: row.text(11))
        tweet.authorID = row.optionalInt64(1).map { UserID(UInt64(bitPattern: $0)) }
        tweet.createdAt = row.optionalInt64(2).map { Date(timeIntervalSince1970: Double($0) / 1000) }
        if let conversation = row.optionalInt64(3) {
            tweet.conversationID = TweetID(UInt64(bitPattern: conversation))
        } else if flags.contains(.startsConversation) {
            tweet.conversationID = id
        }
        tweet.inReplyToUserID = row.optionalInt64(4).map { UserID(UInt64(bitPattern: $0)) }
        tweet.lang = row.optionalText(5)
        if flags.contains(.sensitivityKnown) { tweet.possiblySensitive = flags.contains(.sensitive) }
        tweet.retweetsUnidentifiedOriginal = flags.contains(.retweetsUnidentifiedOriginal)
        try TweetRecord.decodeExtra(row.bytes(12), into: &tweet)
        if flags.contains(.hasMetrics) {
            tweet.metrics = TweetMetrics(
                retweets: Int(row.int64(8)), replies: Int(row.int64(9)), likes: Int(row.int64(7)),
                quotes: Int(row.int64(10)), impressions: tweet.metrics?.impressions,
                bookmarks: tweet.metrics?.bookmarks)
        } else {
            tweet.metrics = nil
        }
        return tweet
    }
}
