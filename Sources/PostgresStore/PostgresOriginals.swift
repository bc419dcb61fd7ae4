import Foundation
import TweetKit
import TweetStore

/// Reads the originals of a page's objects back, expanded: its tweets' (with the `__twarc` block each came with),
/// users' and media's, and those of the places and polls its tweets refer to. Objects stored before the store kept
/// them (schema 5 for places, polls and blocks) are absent, and exports write those from the models.
struct PostgresOriginals {
    let connection: PGConnection
    let codec: OriginalsCodec

    /// The originals the store holds for the page's objects; objects without one are absent.
    func originals(for page: Page) throws -> Originals {
        var originals = Originals()
        let tweetIDs = page.tweets.map(\.id) + page.includedTweets.map(\.id)
        var places = Set<String>()
        var polls = Set<String>()
        if !tweetIDs.isEmpty {
            let rows = try connection.rows(
                "SELECT o.id, o.original, b.body FROM tweet_originals o LEFT JOIN twarc_blocks b ON b.id = o.twarc "
                    + "WHERE o.id = ANY($1::bigint[]) AND o.original IS NOT NULL",
                [.text(PostgresReader.array(tweetIDs))], doing: "reading originals"
            ) { row in (row.int64(0), row.bytes(1), row.isNull(2) ? nil : row.bytes(2)) }
            for (id, blob, block) in rows {
                let tweetID = TweetID(UInt64(bitPattern: id))
                let original = try expand(blob)
                originals.tweets[tweetID] = original
                if let block { originals.tweetTwarc[tweetID] = OriginalJSON(bytes: block) }
                let (place, tweetPolls) = original.placeAndPolls
                if let place { places.insert(place) }
                polls.formUnion(tweetPolls)
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
        if !places.isEmpty || !polls.isEmpty {
            let rows = try connection.rows(
                "SELECT kind, key, original FROM object_originals "
                    + "WHERE (kind = $1 AND key = ANY($2::text[])) OR (kind = $3 AND key = ANY($4::text[]))",
                [
                    .integer(PostgresSchema.ObjectKind.place.rawValue),
                    .text(PostgresReader.textArray(places.sorted())),
                    .integer(PostgresSchema.ObjectKind.poll.rawValue),
                    .text(PostgresReader.textArray(polls.sorted())),
                ], doing: "reading originals"
            ) { row in (row.int64(0), row.text(1), row.bytes(2)) }
            for (kind, key, blob) in rows {
                if kind == PostgresSchema.ObjectKind.place.rawValue {
                    originals.places[key] = try expand(blob)
                } else {
                    originals.polls[key] = try expand(blob)
                }
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
