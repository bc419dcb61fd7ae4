import Foundation
import TweetKit

/// Reads the originals of a page's objects back, expanded, on the store's queue.
struct OriginalsReader {
    let connection: Connection
    /// `__twarc` blocks read so far (an export reads the same few again and again).
    private var twarcBlocks: [Int64: OriginalJSON] = [:]
    /// Users' originals kept from one page to the next by an export, which meets the same authors on every page.
    let userCache: UserOriginalsCache?

    init(connection: Connection, userCache: UserOriginalsCache? = nil) {
        self.connection = connection
        self.userCache = userCache
    }

    /// The originals of the page's tweets, users and media, and of the places and polls its tweets refer to. Each
    /// tweet's `__twarc` block goes into `tweetTwarc`. Objects stored before the store kept originals are absent.
    ///
    /// `stored`, parallel to `page.tweets + page.includedTweets`, holds the tweets' originals when the search read
    /// them with its rows (`SearchExecutor.search(_:request:cursor:readingOriginals:)`); no tweet is then looked up.
    mutating func originals(for page: Page, stored: [StoredOriginal?]? = nil) throws -> Originals {
        var originals = Originals()
        originals.tweets.reserveCapacity(page.tweets.count + page.includedTweets.count)
        var places = Set<String>()
        var polls = Set<String>()
        func keep(_ id: TweetID, _ stored: StoredOriginal) throws {
            let original = OriginalJSON(bytes: try expand(stored.blob))
            originals.tweets[id] = original
            if let twarcID = stored.twarc, let block = try twarc(twarcID) { originals.tweetTwarc[id] = block }
            let (place, tweetPolls) = original.placeAndPolls
            if let place { places.insert(place) }
            polls.formUnion(tweetPolls)
        }
        if let stored {
            for (tweet, original) in zip(page.tweets + page.includedTweets, stored)
            where originals.tweets[tweet.id] == nil {
                if let original { try keep(tweet.id, original) }
            }
        }
        for tweet in stored == nil ? page.tweets + page.includedTweets : [] where originals.tweets[tweet.id] == nil {
            let original = try connection.withStatement(
                "SELECT original, twarc FROM tweets WHERE id = ?", [.integer(Int64(bitPattern: tweet.id.rawValue))]
            ) { row in try row.step() ? StoredOriginal(row, column: 0) : nil }
            if let original { try keep(tweet.id, original) }
        }
        for user in page.users {
            if let cached = userCache?.users[user.id] {
                originals.users[user.id] = cached
            } else if let original = try object(.user, String(user.id.rawValue)) {
                originals.users[user.id] = original
                userCache?.remember(original, for: user.id)
            }
        }
        for media in page.media {
            if let original = try object(.media, media.mediaKey) { originals.media[media.mediaKey] = original }
        }
        for place in places { if let original = try object(.place, place) { originals.places[place] = original } }
        for poll in polls { if let original = try object(.poll, poll) { originals.polls[poll] = original } }
        return originals
    }

    private func object(_ kind: Schema.OriginalKind, _ key: String) throws -> OriginalJSON? {
        let blob = try connection.withStatement(
            "SELECT body FROM originals WHERE kind = ? AND key = ?", [.integer(kind.rawValue), .text(key)]
        ) { row in try row.step() ? row.blob(0) : nil }
        return try blob.map { OriginalJSON(bytes: try expand($0)) }
    }

    private mutating func twarc(_ id: Int64) throws -> OriginalJSON? {
        if let block = twarcBlocks[id] { return block }
        let text = try connection.withStatement("SELECT body FROM twarc_blocks WHERE id = ?", [.integer(id)]) { row in
            try row.step() ? row.text(0) : nil
        }
        let block = text.map(OriginalJSON.init)
        twarcBlocks[id] = block
        return block
    }

    private func expand(_ blob: [UInt8]) throws -> [UInt8] {
        try connection.codec.decompress(blob) { id in
            try connection.withStatement("SELECT body FROM zstd_dictionaries WHERE id = ?", [.integer(Int64(id))]) {
                row in try row.step() ? row.blob(0) : nil
            }
        }
    }
}

/// A tweet's original as the store holds it: compressed, with the id of its `__twarc` block.
struct StoredOriginal {
    let blob: [UInt8]
    let twarc: Int64?

    /// The original in `column` and the block id in the next, or nil when the row has no original.
    init?(_ row: Statement, column: Int32) {
        guard !row.isNull(column) else { return nil }
        blob = row.blob(column)
        twarc = row.isNull(column + 1) ? nil : row.int64(column + 1)
    }
}

/// Users' originals an export has read, so later pages do not read and expand them again. Used only on the store's
/// queue (one export's pages are read one after another there), and bounded so a huge export stays in constant memory.
final class UserOriginalsCache: @unchecked Sendable {
    private(set) var users: [UserID: OriginalJSON] = [:]
    /// The users' models, for the page's `includes`.
    private(set) var models: [UserID: User] = [:]
    private let limit: Int

    init(limit: Int = 100_000) {
        self.limit = limit
    }

    func remember(_ original: OriginalJSON, for id: UserID) {
        if users.count >= limit { users.removeAll(keepingCapacity: true) }
        users[id] = original
    }

    func remember(_ user: User) {
        if models.count >= limit { models.removeAll(keepingCapacity: true) }
        models[user.id] = user
    }
}
