import Foundation
import TweetKit

/// Reads the originals of a page's objects back, expanded, on the store's queue.
struct OriginalsReader {
    let connection: Connection
    /// `__twarc` blocks read so far (an export reads the same few again and again).
    private var twarcBlocks: [Int64: OriginalJSON] = [:]

    init(connection: Connection) {
        self.connection = connection
    }

    /// The originals of the page's tweets, users and media, and of the places and polls its tweets refer to. Each
    /// tweet's `__twarc` block goes into `tweetTwarc`. Objects stored before the store kept originals are absent.
    mutating func originals(for page: Page) throws -> Originals {
        var originals = Originals()
        var places = Set<String>()
        var polls = Set<String>()
        for tweet in page.tweets + page.includedTweets where originals.tweets[tweet.id] == nil {
            let stored = try connection.withStatement(
                "SELECT original, twarc FROM tweets WHERE id = ?", [.integer(Int64(bitPattern: tweet.id.rawValue))]
            ) { row -> ([UInt8], Int64?)? in
                guard try row.step(), !row.isNull(0) else { return nil }
                return (row.blob(0), row.isNull(1) ? nil : row.int64(1))
            }
            guard let (blob, twarcID) = stored else { continue }
            let original = OriginalJSON(bytes: try expand(blob))
            originals.tweets[tweet.id] = original
            if let twarcID, let block = try twarc(twarcID) { originals.tweetTwarc[tweet.id] = block }
            let (place, tweetPolls) = original.placeAndPolls
            if let place { places.insert(place) }
            polls.formUnion(tweetPolls)
        }
        for user in page.users {
            if let original = try object(.user, String(user.id.rawValue)) { originals.users[user.id] = original }
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
