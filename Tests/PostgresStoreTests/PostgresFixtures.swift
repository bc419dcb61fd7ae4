import Foundation
import PostgresStore
import PostgresTesting
import TweetKit
import TweetStore

/// Stores for the tests: a PostgreSQL store on a fresh database of the test server, and SQLite stores beside them.
enum PostgresFixtures {
    /// Skips (with the reason, and CI's marker line) where no PostgreSQL server can be had.
    static var available: Bool { PostgresTestServer.isAvailable }

    /// A PostgreSQL store on a new empty database, with its URL.
    static func store(countLimit: Int = 10_000) throws -> (PostgresStore, String) {
        let url = try PostgresTestServer.makeDatabase()
        return (try PostgresStore(address: url, countLimit: countLimit), url)
    }

    /// Every id of every page of a search, following `nextToken` to the end (or `maxPages`).
    static func allIDs(
        _ source: some TweetSource, _ request: SearchRequest, maxPages: Int = 1_000
    ) async throws -> [UInt64] {
        var ids: [UInt64] = []
        var cursor: String?
        for _ in 0..<maxPages {
            let page = try await source.search(request, cursor: cursor)
            ids += page.tweets.map(\.id.rawValue)
            guard let next = page.nextToken else { break }
            cursor = next
        }
        return ids
    }
}
