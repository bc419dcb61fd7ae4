import Foundation
import TweetKit
import TweetStore

/// Reads the originals of a page's tweets, users and media back from their `original` columns, expanded. The
/// PostgreSQL store keeps no places, polls or `__twarc` blocks, so exports of those fall back to the models.
struct PostgresOriginals {
    let connection: PGConnection
    let codec: OriginalsCodec

    /// The originals the store holds for the page's objects; objects without one are absent.
    func originals(for page: Page) throws -> Originals {
        var originals = Originals()
        let tweetIDs = page.tweets.map(\.id) + page.includedTweets.map(\.id)
        if !tweetIDs.isEmpty {
            for (id, blob) in try blobs("tweet_originals", key: "id", [.text(PostgresReader.array(tweetIDs))], "bigint")
            {
                if let id = Int64(id) { originals.tweets[TweetID(UInt64(bitPattern: id))] = try expand(blob) }
            }
        }
        if !page.users.isEmpty {
            let ids = "{" + page.users.map { String(Int64(bitPattern: $0.id.rawValue)) }.joined(separator: ",") + "}"
            for (id, blob) in try blobs("users", key: "id", [.text(ids)], "bigint") {
                if let id = Int64(id) { originals.users[UserID(UInt64(bitPattern: id))] = try expand(blob) }
            }
        }
        if !page.media.isEmpty {
            let keys = [PGValue.text(PostgresReader.textArray(page.media.map(\.mediaKey)))]
            for (key, blob) in try blobs("media", key: "media_key", keys, "text") {
                originals.media[key] = try expand(blob)
            }
        }
        return originals
    }

    /// (key as text, blob) of the rows of `table` whose `key` is in the array parameter and that keep an original.
    private func blobs(_ table: String, key: String, _ parameters: [PGValue], _ type: String) throws -> [(
        String, [UInt8]
    )] {
        try connection.rows(
            "SELECT \(key), original FROM \(table) WHERE \(key) = ANY($1::\(type)[]) AND original IS NOT NULL",
            parameters, doing: "reading originals"
        ) { row in (row.text(0), row.bytes(1)) }
    }

    private func expand(_ blob: [UInt8]) throws -> OriginalJSON {
        OriginalJSON(bytes: try codec.decompress(blob, loadDictionary: dictionary))
    }

    /// A dictionary the codec has not seen (another importer trained it after this store opened), from the store.
    private func dictionary(_ id: UInt32) throws -> [UInt8]? {
        try connection.rows(
            "SELECT body FROM zstd_dictionaries WHERE id = $1", [.integer(Int64(id))], doing: "reading originals"
        ) { $0.bytes(0) }.first
    }
}
