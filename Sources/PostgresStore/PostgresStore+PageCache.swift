import Foundation
import TweetKit
import TweetStore

/// What `cached_pages.page` holds: the page's ids and paging state; the tweets, users and media themselves live in
/// their tables (written when the page was stored) and are read back from there.
private struct CachedPageRecord: Codable {
    var tweets: [UInt64]
    var included: [UInt64]
    var users: [UInt64]
    var media: [String]
    var newest: UInt64?
    var oldest: UInt64?
    var next: String?
    var previous: String?
    var count: Int?
    var errors: [[String?]]
}

extension PostgresStore {
    /// Keeps `page` for `key` at `cursor`; its tweets and users are written too and join the API collection, so they
    /// become searchable in the store, as in the SQLite store.
    public func storePage(_ page: Page, key: String, cursor: String?, fetchedAt: Date) async throws {
        let record = CachedPageRecord(
            tweets: page.tweets.map(\.id.rawValue), included: page.includedTweets.map(\.id.rawValue),
            users: page.users.map(\.id.rawValue), media: page.media.map(\.mediaKey), newest: page.newestID?.rawValue,
            oldest: page.oldestID?.rawValue, next: page.nextToken, previous: page.previousToken,
            count: page.resultCount,
            errors: page.errors.map {
                [$0.value, $0.detail, $0.title, $0.resourceType, $0.parameter, $0.resourceID, $0.type, $0.section]
            })
        let bytes = [UInt8](try JSONEncoder().encode(record))
        let codec = self.codec
        try await withConnection { connection in
            try connection.transaction {
                try PostgresWriter(connection: connection, codec: codec).write(
                    [page], collection: TweetStore.apiCollection)
                try connection.execute(
                    "INSERT INTO cached_pages(key, cursor, fetched_at, page) VALUES ($1, $2, $3, $4) "
                        + "ON CONFLICT (key, cursor) DO UPDATE SET fetched_at = EXCLUDED.fetched_at, page = EXCLUDED.page",
                    [.text(key), .text(cursor ?? ""), .text(String(fetchedAt.timeIntervalSince1970)), .bytes(bytes)],
                    doing: "caching a page")
            }
        }
    }

    /// The page kept for `key` at `cursor`, if any. A page one of whose tweets has left the store since (`drop api`)
    /// is not a cached page any more: nil sends the search back to the API, as in the SQLite store.
    public func cachedPage(key: String, cursor: String?) async throws -> CachedPage? {
        try await withConnection { connection -> CachedPage? in
            let stored = try connection.rows(
                "SELECT fetched_at, page FROM cached_pages WHERE key = $1 AND cursor = $2",
                [.text(key), .text(cursor ?? "")], doing: "reading the page cache"
            ) { ($0.double(0), $0.bytes(1)) }
            guard let (fetchedAt, bytes) = stored.first else { return nil }
            guard let record = try? JSONDecoder().decode(CachedPageRecord.self, from: Data(bytes)) else {
                throw PostgresError(.internalFailure, address: connection.address, detail: "reading a cached page")
            }
            let reader = PostgresReader(connection: connection)
            let ids = (record.tweets + record.included).map { TweetID($0) }
            let tweets = try reader.tweets(ids)
            guard ids.allSatisfy({ tweets[$0] != nil }) else { return nil }
            let users = try reader.users(record.users.map { UserID($0) })
            let media = try reader.media(record.media)
            var page = Page()
            page.tweets = record.tweets.compactMap { tweets[TweetID($0)] }
            page.includedTweets = record.included.compactMap { tweets[TweetID($0)] }
            page.users = record.users.compactMap { users[UserID($0)] }
            page.media = record.media.compactMap { media[$0] }
            page.newestID = record.newest.map { TweetID($0) }
            page.oldestID = record.oldest.map { TweetID($0) }
            page.nextToken = record.next
            page.previousToken = record.previous
            page.resultCount = record.count
            page.errors = record.errors.map { fields in
                let field = { (index: Int) in index < fields.count ? fields[index] : nil }
                return PartialError(
                    value: field(0), detail: field(1), title: field(2), resourceType: field(3), parameter: field(4),
                    resourceID: field(5), type: field(6), section: field(7))
            }
            return CachedPage(page: page, fetchedAt: Date(timeIntervalSince1970: fetchedAt))
        }
    }
}
