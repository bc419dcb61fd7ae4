import Foundation
import TweetKit
import TweetStore

/// One batch of pages as the COPY text the writer sends: users, media, places and polls, `__twarc` blocks and tweets,
/// each de-duplicated and sorted by key, with the originals compressed.
///
/// Building it needs no connection, so an import builds the next batch on another thread while the server takes
/// the current one (`PostgresStore.importJSONL`).
struct PostgresBatchRows: Sendable {
    /// The `users` columns the rows fill, in order.
    static let userColumns =
        "id, username, name, profile_image_url, verified, description, location, created_at, protected, url, "
        + "followers, following, tweet_count, listed, original"
    /// The `media` columns the rows fill, in order.
    static let mediaColumns = "media_key, type, url, preview_image_url, width, height, alt_text, original"

    /// COPY rows for `users_staging`; empty when the batch names no user.
    private(set) var users: [UInt8] = []
    /// COPY rows for `media_staging`; empty when the batch has no media.
    private(set) var media: [UInt8] = []
    /// COPY rows for `objects_staging` (`object_originals`): the places' and polls' originals, one per key,
    /// compressed; empty when the batch has none.
    private(set) var objects: [UInt8] = []
    /// COPY rows for `twarc_staging` (`twarc_blocks`): each distinct `__twarc` block of the batch with its key.
    private(set) var twarcBlocks: [UInt8] = []
    /// Binary COPY rows of the tweets to upsert through `tweets_staging` (`TweetRow.columns`), and of their
    /// originals (`TweetRow.originalColumns`); empty when there are none.
    private(set) var tweets = TweetStreams()
    /// Binary COPY rows of tweets the import has not seen before, which the writer may COPY straight into `tweets`
    /// and `tweet_originals` (`PostgresImportLedger`).
    private(set) var unseen = TweetStreams()
    /// Result tweets among the rows (a tweet only referenced by another does not count).
    private(set) var primaries = 0
    /// The ids of the result tweets among `unseen`, which a collection gains when they are sent directly.
    private(set) var unseenPrimaryIDs: [Int64] = []
    /// The dictionary the originals were compressed with, which the writer stores with them; nil when none was.
    private(set) var dictionary: OriginalsCodec.Dictionary?

    /// No rows.
    init() {}

    /// The rows of `pages`. The copy a tweet ends with follows the SQLite store's rule: a result beats a tweet stored
    /// only as a reference, and among equals the last one wins. With a `ledger`, users this import wrote unchanged
    /// are left out, and tweets it has not seen go to `unseen`.
    init(_ pages: [Page], codec: OriginalsCodec, ledger: PostgresImportLedger? = nil) {
        let trained = codec.dictionary(trainingFrom: pages)
        var used: OriginalsCodec.Dictionary?
        func compressed(_ original: OriginalJSON?) -> [UInt8]? {
            guard let original else { return nil }
            used = trained
            return codec.compress(original.bytes, dictionary: trained)
        }
        var rows: [TweetRow] = []
        var position: [TweetID: Int] = [:]
        func keep(_ row: TweetRow) {
            if let index = position[row.tweet.id] {
                if row.primary || !rows[index].primary { rows[index] = row }
            } else {
                position[row.tweet.id] = rows.count
                rows.append(row)
            }
        }
        var users: [UserID: (User, OriginalJSON?)] = [:]
        var included = IncludedCopies<Int64?>()
        var media: [String: (Media, [UInt8]?)] = [:]
        var objects: [ObjectKey: [UInt8]] = [:]
        var blocks: [Int64: [UInt8]] = [:]
        func key(of block: OriginalJSON?) -> Int64? {
            guard let block else { return nil }
            let key = TwarcBlockKey.key(block.bytes)
            blocks[key] = block.bytes
            return key
        }
        for page in pages {
            let originals = page.originals
            // One key per page, shared by its tweets; a page gathered from the store names blocks per tweet.
            let pageTwarc = key(of: originals.twarc)
            var tweetTwarc: [TweetID: Int64] = [:]
            for (id, block) in originals.tweetTwarc { tweetTwarc[id] = key(of: block) }
            func row(_ tweet: Tweet, primary: Bool) -> TweetRow {
                TweetRow(
                    tweet: tweet, primary: primary, original: compressed(originals.tweets[tweet.id]),
                    twarc: tweetTwarc[tweet.id] ?? pageTwarc)
            }
            for tweet in page.includedTweets {
                included.keep(tweet, original: originals.tweets[tweet.id], block: tweetTwarc[tweet.id] ?? pageTwarc)
            }
            for tweet in page.tweets { keep(row(tweet, primary: true)) }
            for user in page.users { users[user.id] = (user, originals.users[user.id]) }
            for item in page.media { media[item.mediaKey] = (item, compressed(originals.media[item.mediaKey])) }
            // The newer copy of a place or poll wins, as in the SQLite store.
            for (id, place) in originals.places { objects[ObjectKey(kind: .place, key: id)] = compressed(place) }
            for (id, poll) in originals.polls { objects[ObjectKey(kind: .poll, key: id)] = compressed(poll) }
        }
        // Included copies last, the last of each and none of a result (`keep`'s rule, `IncludedCopies`).
        for (tweet, original, twarc) in included.copies(notAmong: { position[$0] != nil }) {
            keep(TweetRow(tweet: tweet, primary: false, original: compressed(original), twarc: twarc))
        }
        self.objects = Self.objectRows(objects)
        self.twarcBlocks = Self.twarcRows(blocks)
        // A user's original is compressed only when it is written: most of a batch's users were, by the batches
        // before.
        var written: [(User, [UInt8]?)] = []
        for (user, original) in users.values.sorted(by: { $0.0.id < $1.0.id }) {
            if let ledger {
                let fingerprint = user.storeFingerprint(original: original)
                guard ledger.mustWrite(user: user.id.rawValue, fingerprint: fingerprint) else { continue }
            }
            written.append((user, compressed(original)))
        }
        self.users = Self.userRows(written)
        self.media = Self.mediaRows(media.values.sorted { $0.0.mediaKey < $1.0.mediaKey })
        var documents = DocumentVector()
        let sendsUnseen = ledger?.sendsUnseen ?? false
        // Sorted by position: moving whole rows (each a tweet model) through the sort cost more than the comparisons.
        for index in rows.indices.sorted(by: { rows[$0].tweet.id < rows[$1].tweet.id }) {
            let row = rows[index]
            if sendsUnseen, let ledger, ledger.isUnseen(tweet: row.tweet.id.rawValue) {
                row.append(to: &unseen, documents: &documents)
                if row.primary { unseenPrimaryIDs.append(Int64(bitPattern: row.tweet.id.rawValue)) }
            } else {
                row.append(to: &tweets, documents: &documents)
            }
        }
        primaries = rows.filter(\.primary).count
        dictionary = used
    }

    private static func userRows(_ users: [(User, [UInt8]?)]) -> [UInt8] {
        var rows = CopyRows()
        for (user, original) in users {
            rows.integer(Int64(bitPattern: user.id.rawValue))
            rows.text(user.username)
            rows.text(user.name)
            rows.text(user.profileImageURL)
            rows.text(user.verified ? "t" : "f")
            rows.text(user.description)
            rows.text(user.location)
            rows.integer(user.createdAt.map(TweetRecord.milliseconds))
            rows.text(user.protected ? "t" : "f")
            rows.text(user.url)
            rows.integer(user.metrics.map { Int64($0.followers) })
            rows.integer(user.metrics.map { Int64($0.following) })
            rows.integer(user.metrics.map { Int64($0.tweets) })
            rows.integer(user.metrics.map { Int64($0.listed) })
            rows.blob(original)
            rows.endRow()
        }
        return rows.bytes
    }

    private static func objectRows(_ objects: [ObjectKey: [UInt8]]) -> [UInt8] {
        var rows = CopyRows()
        for (object, original) in objects.sorted(by: {
            ($0.key.kind.rawValue, $0.key.key) < ($1.key.kind.rawValue, $1.key.key)
        }) {
            rows.integer(object.kind.rawValue)
            rows.text(object.key)
            rows.blob(original)
            rows.endRow()
        }
        return rows.bytes
    }

    private static func twarcRows(_ blocks: [Int64: [UInt8]]) -> [UInt8] {
        var rows = CopyRows()
        for (key, body) in blocks.sorted(by: { $0.key < $1.key }) {
            rows.integer(key)
            rows.blob(body)
            rows.endRow()
        }
        return rows.bytes
    }

    private static func mediaRows(_ media: [(Media, [UInt8]?)]) -> [UInt8] {
        var rows = CopyRows()
        for (item, original) in media {
            rows.text(item.mediaKey)
            rows.text(item.kind.rawValue)
            rows.text(item.url)
            rows.text(item.previewImageURL)
            rows.integer(item.width.map { Int64($0) })
            rows.integer(item.height.map { Int64($0) })
            rows.text(item.altText)
            rows.blob(original)
            rows.endRow()
        }
        return rows.bytes
    }
}

/// A place's or poll's key in `object_originals`.
private struct ObjectKey: Hashable {
    let kind: PostgresSchema.ObjectKind
    let key: String
}
