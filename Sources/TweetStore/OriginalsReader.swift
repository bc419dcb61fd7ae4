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
        var deferred: [DeferredTweetOriginal]?
        return try originals(for: page, stored: stored, deferring: &deferred)
    }

    /// The originals of `originals(for:stored:)` except the tweets', which come back compressed (with their
    /// `__twarc` block already read) for `DeferredTweetOriginal.expand` to expand off the store's queue. The places
    /// and polls those tweets name are then not read here; `expand` says which ones the page still needs.
    mutating func originalsDeferringTweets(
        for page: Page, stored: [StoredOriginal?]
    ) throws -> (Originals, [DeferredTweetOriginal]) {
        var deferred: [DeferredTweetOriginal]? = []
        let originals = try originals(for: page, stored: stored, deferring: &deferred)
        return (originals, deferred ?? [])
    }

    /// Places' and polls' originals by id, for the ones `DeferredTweetOriginal.expand` found missing.
    func objects(places: Set<String>, polls: Set<String>, into originals: inout Originals) throws {
        for place in places { if let original = try object(.place, place) { originals.places[place] = original } }
        for poll in polls { if let original = try object(.poll, poll) { originals.polls[poll] = original } }
    }

    private mutating func originals(
        for page: Page, stored: [StoredOriginal?]?, deferring deferred: inout [DeferredTweetOriginal]?
    ) throws -> Originals {
        var originals = Originals()
        originals.tweets.reserveCapacity(page.tweets.count + page.includedTweets.count)
        var places = Set<String>()
        var polls = Set<String>()
        var deferredIDs = Set<TweetID>()
        func keep(_ id: TweetID, _ stored: StoredOriginal) throws {
            if deferred != nil {
                guard deferredIDs.insert(id).inserted else { return }
                var block: OriginalJSON?
                if let twarcID = stored.twarc { block = try twarc(twarcID) }
                deferred?.append(DeferredTweetOriginal(id: id, blob: stored.blob, twarc: block))
                return
            }
            let original = OriginalJSON(bytes: try expand(stored.blob))
            originals.tweets[id] = original
            if let twarcID = stored.twarc, let block = try twarc(twarcID) { originals.tweetTwarc[id] = block }
            let (place, tweetPolls) = original.placeAndPolls
            if let place { places.insert(place) }
            polls.formUnion(tweetPolls)
        }
        // The ids of `page.tweets + page.includedTweets`, in that order, without copying the tweets into one list.
        let count = page.tweets.count + page.includedTweets.count
        func id(at position: Int) -> TweetID {
            position < page.tweets.count
                ? page.tweets[position].id : page.includedTweets[position - page.tweets.count].id
        }
        if let stored {
            for position in 0..<min(count, stored.count) {
                let tweetID = id(at: position)
                if originals.tweets[tweetID] == nil, let original = stored[position] { try keep(tweetID, original) }
            }
        } else {
            for position in 0..<count {
                let tweetID = id(at: position)
                guard originals.tweets[tweetID] == nil else { continue }
                let original = try connection.withStatement(
                    "SELECT original, twarc FROM tweets WHERE id = ?", [.integer(Int64(bitPattern: tweetID.rawValue))]
                ) { row in try row.step() ? StoredOriginal(row, column: 0) : nil }
                if let original { try keep(tweetID, original) }
            }
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

    func expand(_ blob: [UInt8]) throws -> [UInt8] {
        try connection.codec.decompress(blob) { id in
            try connection.withStatement("SELECT body FROM zstd_dictionaries WHERE id = ?", [.integer(Int64(id))]) {
                row in try row.step() ? row.blob(0) : nil
            }
        }
    }
}

/// A tweet's original read compressed by `OriginalsReader.originalsDeferringTweets`, so that an export expands it on
/// its own task rather than on the store's queue: in a profile the originals took as much of an export as the search
/// itself, and the queue was the export's bottleneck.
struct DeferredTweetOriginal: Sendable {
    let id: TweetID
    let blob: [UInt8]
    let twarc: OriginalJSON?

    /// Expands the originals into `originals` with the dictionaries `codec` knows, and returns the places and polls
    /// they name that `originals` lacks, and the ones that need the store (a dictionary the codec has not loaded,
    /// or a damaged blob, whose error the store's reader then reports).
    static func expand(
        _ deferred: [DeferredTweetOriginal], into originals: inout Originals, codec: OriginalsCodec
    ) -> (places: Set<String>, polls: Set<String>, needStore: [DeferredTweetOriginal]) {
        var places = Set<String>()
        var polls = Set<String>()
        var needStore: [DeferredTweetOriginal] = []
        for entry in deferred {
            guard let bytes = try? codec.decompress(entry.blob, loadDictionary: { _ in nil }) else {
                needStore.append(entry)
                continue
            }
            let original = OriginalJSON(bytes: bytes)
            originals.tweets[entry.id] = original
            if let twarc = entry.twarc { originals.tweetTwarc[entry.id] = twarc }
            let (place, tweetPolls) = original.placeAndPolls
            if let place, originals.places[place] == nil { places.insert(place) }
            for poll in tweetPolls where originals.polls[poll] == nil { polls.insert(poll) }
        }
        return (places, polls, needStore)
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
