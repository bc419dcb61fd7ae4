import Foundation
import TweetKit

extension TweetStore {
    /// Keeps an API page: its tweets, users and media go into the tables (so they are searchable locally), and the
    /// page itself is remembered as the ids it held plus its `meta` and partial errors.
    public func storePage(_ page: Page, key: String, cursor: String?, fetchedAt: Date) async throws {
        try await database.run { connection in
            try connection.transaction {
                let writer = try Writer(connection: connection)
                let batch = PreparedBatch([page], codec: connection.codec)
                try writer.write(batch)
                // Tweets fetched from the API are a collection of their own.
                try CollectionMembership.add(connection, batch, to: CollectionMembership.api)
                try connection.withStatement(
                    "INSERT OR REPLACE INTO cached_pages(key, cursor, fetched_at, page) VALUES (?,?,?,?)",
                    [
                        .text(key), .text(cursor ?? ""), .real(fetchedAt.timeIntervalSince1970),
                        .blob(PageRecord.encode(page)),
                    ]
                ) { try $0.run() }
            }
        }
    }

    /// The page kept for `key` at `cursor`, rebuilt from the tables, with when it was fetched.
    ///
    /// A page one of whose tweets has left the store since (`drop api`) is no longer a cached page: nil sends the
    /// search back to the API, whose page then replaces it. Handing it on without them made a repeated search skip
    /// those tweets without a word. (Nothing is deleted here, so a read-only store behaves the same.)
    public func cachedPage(key: String, cursor: String?) async throws -> CachedPage? {
        try await database.run { connection in
            let stored = try connection.withStatement(
                "SELECT fetched_at, page FROM cached_pages WHERE key = ? AND cursor = ?",
                [.text(key), .text(cursor ?? "")]
            ) { row in try row.step() ? (row.double(0), row.blob(1)) : nil }
            guard let (fetchedAt, bytes) = stored else { return nil }
            guard let page = try PageRecord.decode(bytes, reader: Reader(connection: connection)) else { return nil }
            return CachedPage(page: page, fetchedAt: Date(timeIntervalSince1970: fetchedAt))
        }
    }

    /// Forgets cached pages fetched before `date` (their tweets stay searchable).
    public func removeCachedPages(fetchedBefore date: Date) async throws {
        try await database.run { connection in
            try connection.withStatement(
                "DELETE FROM cached_pages WHERE fetched_at < ?", [.real(date.timeIntervalSince1970)]
            ) {
                try $0.run()
            }
        }
    }
}

/// A cached page as bytes: which tweets, users and media it held, in order, and its meta and errors.
enum PageRecord {
    private static let version: UInt8 = 1

    static func encode(_ page: Page) -> [UInt8] {
        var writer = ByteWriter()
        writer.byte(version)
        for ids in [page.tweets.map(\.id), page.includedTweets.map(\.id), page.users.map(\.id)] {
            writer.varint(UInt64(ids.count))
            for id in ids { writer.varint(id.rawValue) }
        }
        writer.varint(UInt64(page.media.count))
        for media in page.media { writer.string(media.mediaKey) }
        writer.optionalID(page.newestID?.rawValue)
        writer.optionalID(page.oldestID?.rawValue)
        writer.optionalString(page.nextToken)
        writer.optionalString(page.previousToken)
        writer.optionalInt(page.resultCount)
        writer.varint(UInt64(page.errors.count))
        for error in page.errors {
            for field in [
                error.value, error.detail, error.title, error.resourceType, error.parameter, error.resourceID,
                error.type, error.section,
            ] {
                writer.optionalString(field)
            }
        }
        return writer.bytes
    }

    /// The page, or nil when one of its tweets is no longer in the store.
    static func decode(_ bytes: [UInt8], reader: Reader) throws -> Page? {
        var input = ByteReader(bytes)
        guard try input.byte() == version else { throw StoreError(message: "damaged cached page") }
        var page = Page()
        let tweetIDs = try (0..<input.count()).map { _ in TweetID(try input.varint()) }
        let includedIDs = try (0..<input.count()).map { _ in TweetID(try input.varint()) }
        page.tweets = try tweetIDs.compactMap { try reader.tweet($0) }
        page.includedTweets = try includedIDs.compactMap { try reader.tweet($0) }
        guard page.tweets.count == tweetIDs.count, page.includedTweets.count == includedIDs.count else { return nil }
        page.users = try (0..<input.count()).compactMap { _ in try reader.user(UserID(try input.varint())) }
        page.media = try (0..<input.count()).compactMap { _ in try reader.media(try input.string()) }
        page.newestID = try input.optionalID().map { TweetID($0) }
        page.oldestID = try input.optionalID().map { TweetID($0) }
        page.nextToken = try input.optionalString()
        page.previousToken = try input.optionalString()
        page.resultCount = try input.optionalInt()
        page.errors = try (0..<input.count()).map { _ in
            PartialError(
                value: try input.optionalString(), detail: try input.optionalString(),
                title: try input.optionalString(),
                resourceType: try input.optionalString(), parameter: try input.optionalString(),
                resourceID: try input.optionalString(), type: try input.optionalString(),
                section: try input.optionalString())
        }
        return page
    }
}
