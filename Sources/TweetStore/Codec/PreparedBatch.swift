import Foundation
import TweetKit

/// A tweet turned into what the writer binds, computed before the write so the serial writer thread does only SQLite
/// work: row values, flags, the compact `extra` bytes and the index document are built by the decoding tasks.
///
/// A class, because batches are merged, sorted and deduplicated before the write: moving a reference costs one
/// retain, where copying the struct's dozen strings and arrays cost the import a tenth of its CPU time.
final class PreparedTweet: Sendable {
    let rowid: Int64
    let primary: Bool
    let author: Int64?
    let createdAt: Int64?
    /// NULL when the tweet starts its own conversation (the `startsConversation` flag says so) or it is unknown.
    let conversation: Int64?
    let replyTo: Int64?
    let lang: String?
    let flags: Int64
    let likes: Int64
    let reposts: Int64
    let replies: Int64
    let quotes: Int64
    let text: String
    let extra: [UInt8]
    /// What the index should hold; nil for included tweets, which are not indexed.
    let document: TweetDocument?
    /// What `top` and `stats` rank (`tweet_keys`); nil for included tweets and for tweets without keys.
    let keys: ExploreKeys?
    /// The tweet's JSON as it came, compressed; nil when the source had none.
    let original: [UInt8]?
    /// The `__twarc` block of the page it came in.
    let twarc: String?

    init(_ tweet: Tweet, primary: Bool, original: [UInt8]? = nil, twarc: String? = nil) {
        self.original = original
        self.twarc = twarc
        rowid = Int64(bitPattern: tweet.id.rawValue)
        self.primary = primary
        author = tweet.authorID.map { Int64(bitPattern: $0.rawValue) }
        createdAt = tweet.createdAt.map(TweetRecord.milliseconds)
        conversation = tweet.conversationID.flatMap { $0 == tweet.id ? nil : Int64(bitPattern: $0.rawValue) }
        replyTo = tweet.inReplyToUserID.map { Int64(bitPattern: $0.rawValue) }
        lang = tweet.lang
        flags = TweetRecord.flags(for: tweet, includedOnly: !primary).rawValue
        let metrics = tweet.metrics
        likes = Int64(metrics?.likes ?? 0)
        reposts = Int64(metrics?.retweets ?? 0)
        replies = Int64(metrics?.replies ?? 0)
        quotes = Int64(metrics?.quotes ?? 0)
        text = tweet.text
        extra = TweetRecord.encodeExtra(tweet)
        document = primary ? TweetDocument(tweet) : nil
        let keys = primary && !tweet.entities.isEmpty ? ExploreKeys(tweet) : nil
        self.keys = keys?.isEmpty == false ? keys : nil
    }

    /// Binds the row to a statement over `Writer`'s columns. `kept` is the original and `__twarc` block id to store,
    /// which the writer resolves (and carries over from the stored row when this copy has none).
    func bind(to statement: Statement, original kept: [UInt8]?, twarc twarcID: Int64?) {
        if let kept { statement.bind(.blob(kept), at: 14) } else { statement.bind(nil as Int64?, at: 14) }
        statement.bind(twarcID, at: 15)
        statement.bind(rowid, at: 1)
        statement.bind(author, at: 2)
        statement.bind(createdAt, at: 3)
        statement.bind(conversation, at: 4)
        statement.bind(replyTo, at: 5)
        statement.bind(lang, at: 6)
        statement.bind(flags, at: 7)
        statement.bind(likes, at: 8)
        statement.bind(reposts, at: 9)
        statement.bind(replies, at: 10)
        statement.bind(quotes, at: 11)
        statement.bind(text, at: 12)
        if extra.isEmpty { statement.bind(nil as Int64?, at: 13) } else { statement.bind(.blob(extra), at: 13) }
    }
}

/// Pages ready for `Writer`: users, media, and every tweet once, in ascending id order.
///
/// Ascending order is what FTS5 writes fastest (it starts a new segment whenever a rowid goes down) and what the
/// table's B-tree appends best. A tweet that comes more than once keeps the copy the store would end with had the
/// copies been written one by one: a result copy beats an included one, and among equals the last one wins.
struct PreparedBatch: Sendable {
    /// Users with a fingerprint of their fields and original, so the writer can skip ones it has written unchanged,
    /// and their original (nil without a codec). The writer compresses an original only when it writes the user:
    /// authors come again in nearly every batch unchanged, and compressing each batch's copies cost the import as
    /// much zstd time as its tweets.
    private(set) var users: [(user: User, fingerprint: Int, original: OriginalJSON?)] = []
    private var userPositions: [UserID: Int] = [:]
    var media: [(media: Media, original: [UInt8]?)] = []
    /// Places and polls, which exist only as originals: `(kind, id, compressed JSON)`.
    var others: [(kind: Schema.OriginalKind, key: String, original: [UInt8])] = []
    /// The dictionary the originals were compressed with, which must be stored with them.
    var dictionary: OriginalsCodec.Dictionary?
    private(set) var tweets: [PreparedTweet] = []
    private var isOrdered = true

    /// Prepares pages; with a codec, their originals are compressed (training its dictionary from these pages if
    /// the store has none yet and they hold enough objects).
    ///
    /// Included tweets are prepared last, one copy per id and none for an id that is also a result here
    /// (`IncludedCopies`).
    init(_ pages: [Page], codec: OriginalsCodec? = nil) {
        if let codec { _ = codec.dictionary(trainingFrom: pages) }
        var included = IncludedCopies<String?>()
        for page in pages { append(page, codec: codec, included: &included) }
        let results = Set(tweets.map { $0.rowid })
        for (tweet, original, twarc) in included.copies(notAmong: { results.contains(Int64(bitPattern: $0.rawValue)) })
        {
            let compressed = codec.flatMap { codec in original.map { codec.compress($0.bytes) } }
            tweets.append(PreparedTweet(tweet, primary: false, original: compressed, twarc: twarc))
        }
        order()
    }

    /// Adds a page's users, media, other objects and results, and keeps its included tweets in `included`.
    private mutating func append(_ page: Page, codec: OriginalsCodec?, included: inout IncludedCopies<String?>) {
        let originals = page.originals
        func compressed(_ original: OriginalJSON?) -> [UInt8]? {
            guard let original, let codec else { return nil }
            return codec.compress(original.bytes)
        }
        if let codec, !originals.isEmpty, let current = codec.currentDictionary { dictionary = current }
        // Authors come again on almost every page: keep one copy per user (the last, as writing them in turn would
        // leave).
        for user in page.users {
            let original = codec == nil ? nil : originals.users[user.id]
            let fingerprint = user.storeFingerprint(original: original)
            if let position = userPositions[user.id] {
                if users[position].fingerprint != fingerprint { users[position] = (user, fingerprint, original) }
            } else {
                userPositions[user.id] = users.count
                users.append((user, fingerprint, original))
            }
        }
        media += page.media.map { ($0, compressed(originals.media[$0.mediaKey])) }
        if codec != nil {
            for (key, place) in originals.places { others.append((.place, key, compressed(place)!)) }
            for (key, poll) in originals.polls { others.append((.poll, key, compressed(poll)!)) }
        }
        // One string per page, shared by its tweets (the writer then knows them apart by identity, cheaply).
        let pageTwarc = originals.twarc?.text
        func twarc(_ id: TweetID) -> String? {
            originals.tweetTwarc.isEmpty ? pageTwarc : originals.tweetTwarc[id]?.text ?? pageTwarc
        }
        for tweet in page.includedTweets {
            included.keep(tweet, original: codec == nil ? nil : originals.tweets[tweet.id], block: twarc(tweet.id))
        }
        tweets += page.tweets.map {
            PreparedTweet($0, primary: true, original: compressed(originals.tweets[$0.id]), twarc: twarc($0.id))
        }
        isOrdered = false
    }

    /// Appends another batch after this one; call `order()` afterwards.
    mutating func append(_ other: PreparedBatch) {
        for entry in other.users {
            if let position = userPositions[entry.user.id] {
                users[position] = entry
            } else {
                userPositions[entry.user.id] = users.count
                users.append(entry)
            }
        }
        media += other.media
        others += other.others
        dictionary = dictionary ?? other.dictionary
        tweets += other.tweets
        isOrdered = false
    }

    /// Sorts the tweets by id and keeps one copy of each (see the type's comment).
    mutating func order() {
        guard !isOrdered else { return }
        isOrdered = true
        // Sorting (id, arrival) pairs keeps arrival order among copies of one id, so "last" below means last to
        // arrive. The pairs are plain integers: a comparison that read each tweet's id through the array retained and
        // released two objects, and sorting took 2% of an import.
        var order = tweets.indices.map { (rowid: tweets[$0].rowid, arrival: $0) }
        order.sort { $0 < $1 }
        var kept: [PreparedTweet] = []
        kept.reserveCapacity(order.count)
        for (_, index) in order {
            let tweet = tweets[index]
            if let last = kept.last, last.rowid == tweet.rowid {
                if tweet.primary || !last.primary { kept[kept.count - 1] = tweet }
            } else {
                kept.append(tweet)
            }
        }
        tweets = kept
    }
}

extension User {
    /// What tells a user written before from a changed one, for a writer that skips users it wrote unchanged (this
    /// store's and the PostgreSQL store's): the original alone when there is one, since the model is decoded from it
    /// and the same bytes make the same user (hashing both cost the import 1.5% of its time), else the fields.
    package func storeFingerprint(original: OriginalJSON?) -> Int {
        var hasher = Hasher()
        if let original { hasher.combine(original) } else { hasher.combine(self) }
        return hasher.finalize()
    }
}
