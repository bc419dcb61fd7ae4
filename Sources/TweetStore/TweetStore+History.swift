import Foundation
import TweetKit

/// One remembered search: enough to show history and to continue with `more` after a restart.
public struct SearchHistoryEntry: Hashable, Sendable {
    /// The query text as the user typed it.
    public var query: String
    /// The source it ran against (`local`, `x`).
    public var source: String
    /// When it last ran.
    public var lastRun: Date
    /// The newest tweet id seen, for fetching only newer ones later (`since_id`).
    public var newestID: TweetID?
    /// Where the next page starts, if there is one.
    public var nextCursor: String?

    /// Creates an entry.
    public init(query: String, source: String, lastRun: Date, newestID: TweetID? = nil, nextCursor: String? = nil) {
        self.query = query
        self.source = source
        self.lastRun = lastRun
        self.newestID = newestID
        self.nextCursor = nextCursor
    }
}

extension TweetStore {
    /// Records a search run, replacing the earlier record of the same query on the same source.
    ///
    /// A newest id already recorded is kept when the new one is older or missing, so paging back never loses it.
    public func recordSearch(_ entry: SearchHistoryEntry) async throws {
        try await database.run { connection in
            try connection.withStatement(
                """
                INSERT INTO search_history(query, source, last_run, newest_id, next_cursor) VALUES (?,?,?,?,?)
                ON CONFLICT(query, source) DO UPDATE SET last_run = excluded.last_run,
                    newest_id = max(coalesce(excluded.newest_id, newest_id), coalesce(newest_id, excluded.newest_id)),
                    next_cursor = excluded.next_cursor
                """,
                [
                    .text(entry.query), .text(entry.source), .real(entry.lastRun.timeIntervalSince1970),
                    entry.newestID.map { .integer(Int64(bitPattern: $0.rawValue)) } ?? .null,
                    entry.nextCursor.map(SQLValue.text) ?? .null,
                ]
            ) { try $0.run() }
        }
    }

    /// Recent searches, most recent first.
    public func searchHistory(limit: Int = 50) async throws -> [SearchHistoryEntry] {
        try await database.run { connection in
            try connection.rows(
                "SELECT query, source, last_run, newest_id, next_cursor FROM search_history ORDER BY last_run DESC LIMIT ?",
                [.integer(Int64(max(0, limit)))], Self.historyEntry)
        }
    }

    /// The record of `query` on `source`, if it ran before.
    public func lastSearch(query: String, source: String) async throws -> SearchHistoryEntry? {
        try await database.run { connection in
            try connection.rows(
                "SELECT query, source, last_run, newest_id, next_cursor FROM search_history WHERE query = ? AND source = ?",
                [.text(query), .text(source)], Self.historyEntry
            ).first
        }
    }

    private static func historyEntry(_ row: Statement) -> SearchHistoryEntry {
        SearchHistoryEntry(
            query: row.text(0), source: row.text(1), lastRun: Date(timeIntervalSince1970: row.double(2)),
            newestID: row.optionalInt64(3).map { TweetID(UInt64(bitPattern: $0)) }, nextCursor: row.optionalText(4))
    }
}
