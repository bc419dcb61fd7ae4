import Foundation
import TweetKit

/// The local tweet store: an SQLite file with a full-text index, searched with X's query syntax.
///
/// It is tweetsh's default `TweetSource` and the `PageCache` behind the API client. All access goes through one
/// connection on a private serial queue, so a store can be shared freely between tasks and threads; every async call
/// honours task cancellation by interrupting SQLite.
public final class TweetStore: TweetSource, PageCache, Sendable {
    /// `local`.
    public let name = "local"
    /// Where the data lives.
    public let location: StoreLocation
    let database: Database
    /// Compresses and expands the originals; batches are prepared with it off the store's queue.
    let codec: OriginalsCodec
    /// The first page of a search counts matches up to this many; above it `Page.resultCount` stays nil.
    let countLimit: Int

    /// True when the store was opened read-only (its file or folder cannot be written, or a `file:` URI asked for
    /// it): searches, lookups and cached pages work; every write fails with `StoreError.Kind.readOnly`.
    public var isReadOnly: Bool { readOnlyReason != nil }
    /// Why the store is read-only (`its folder /x is not writable`); nil when it is writable.
    public let readOnlyReason: String?
    /// The database file's path; nil in memory.
    public let path: String?

    /// Opens (creating if needed) the store at `location` and brings its schema up to date; see `StoreOpener` for what
    /// happens when other processes open it at the same time, when it cannot be written, or when it is not a store.
    ///
    /// - Parameters:
    ///   - countLimit: how far the first page of a search counts matches; 0 turns counting off.
    ///   - willUpgrade: called before an upgrade of the file's schema that indexes its tweets again, with their
    ///     number, so the caller can say why opening takes a while; not called for new or current files.
    public init(
        location: StoreLocation = .defaultLocation(), countLimit: Int = 1_000,
        willUpgrade: ((_ tweets: Int) -> Void)? = nil
    ) throws {
        self.location = location
        self.countLimit = countLimit
        let opened = try StoreOpener(willUpgrade: willUpgrade).open(location)
        readOnlyReason = opened.readOnlyReason
        let connection = opened.connection
        let path = connection.path
        self.path = path.isEmpty ? nil : path
        // The dictionaries the originals were compressed with, oldest first, so every stored original can be read.
        let dictionaries = try connection.rows("SELECT id, body FROM zstd_dictionaries ORDER BY created, id") {
            (UInt32(truncatingIfNeeded: $0.int64(0)), $0.blob(1))
        }
        connection.codec.install(dictionaries.map(\.1))
        connection.storedDictionaries = Set(dictionaries.map(\.0))
        codec = connection.codec
        database = Database(connection: connection, label: "tweetsh.store")
    }

    /// Closes the store: a statement still running stops, and when this is the last connection to the file its
    /// write-ahead log is folded into it (`wal_checkpoint(TRUNCATE)`), so the `.sqlite` file alone is a complete copy.
    /// Later calls fail with `StoreError.Kind.closed`. Call it once the shell is done, also when a signal ends it;
    /// safe from any thread and more than once.
    public func close() {
        database.close()
    }

    // MARK: TweetSource

    /// One page of matches for `request.query`; `cursor` is the previous page's `nextToken`.
    ///
    /// Throws `QueryParseError` for a malformed query and `StoreError` for a cursor that is not this store's.
    public func search(_ request: SearchRequest, cursor: String?) async throws -> Page {
        let query = try SearchQuery(parsing: request.query)
        return try await search(query, request: request, cursor: cursor)
    }

    /// One page of matches for an already parsed query (the request's `query` text is ignored).
    public func search(_ query: SearchQuery, request: SearchRequest, cursor: String?) async throws -> Page {
        let countLimit = self.countLimit
        return try await database.run { connection in
            try connection.readTransaction {
                try SearchExecutor(connection: connection, countLimit: countLimit).search(
                    query, request: request, cursor: cursor)
            }
        }
    }

    /// The stored tweets with these ids, in the order asked; unknown ids come back as `Not Found Error`s, as from X.
    public func lookup(ids: [TweetID]) async throws -> Page {
        try await database.run { connection in
            let reader = Reader(connection: connection)
            var found: [Tweet] = []
            var errors: [PartialError] = []
            for id in ids {
                if let tweet = try reader.tweet(id) {
                    found.append(tweet)
                } else {
                    errors.append(
                        PartialError(
                            value: id.description, detail: "Could not find tweet with ids: [\(id)].",
                            title: "Not Found Error",
                            resourceType: "tweet", parameter: "ids", resourceID: id.description,
                            type: "https://api.twitter.com/2/problems/resource-not-found"))
                }
            }
            var page = try reader.page(with: found)
            page.errors = errors
            page.resultCount = found.count
            return page
        }
    }

    /// A user's stored tweets, newest first (`from:username`).
    public func userTimeline(username: String, cursor: String?, limit: Int) async throws -> Page {
        guard case .term(.from(let handle))? = try? SearchQuery(parsing: "from:" + username).root else {
            throw StoreError(message: "'\(username)' is not a username")
        }
        let request = SearchRequest(query: "from:\(handle)", pageSize: limit)
        return try await search(SearchQuery(.term(.from(handle))), request: request, cursor: cursor)
    }

    /// The stored tweets of a conversation, newest first (`conversation_id:id`).
    public func conversation(id: TweetID, cursor: String?, limit: Int) async throws -> Page {
        let request = SearchRequest(query: "conversation_id:\(id)", pageSize: limit)
        return try await search(SearchQuery(.term(.conversationID(id))), request: request, cursor: cursor)
    }

    /// How the store runs `query`: the FTS5 expression and the SQL conditions, for `explain` and bug reports.
    public func explain(_ query: SearchQuery) async throws -> String {
        try await database.run { connection in
            let compiled = try QueryCompiler(resolveUser: Reader(connection: connection).userIDs(matching:)).compile(
                query)
            var lines = ["match: " + (compiled.match ?? "(none: scans tweets newest first)")]
            lines += compiled.conditions.map { "where: " + $0 }
            if !compiled.bindings.isEmpty {
                lines.append(
                    "values: "
                        + compiled.bindings.map { value -> String in
                            switch value {
                            case .integer(let v): return String(v)
                            case .real(let v): return String(v)
                            case .text(let v): return "'" + v + "'"
                            case .blob(let v): return "<\(v.count) bytes>"
                            case .null: return "NULL"
                            }
                        }.joined(separator: ", "))
            }
            return lines.joined(separator: "\n")
        }
    }

    // MARK: Writing

    /// Adds pages in one transaction: tweets become searchable, included tweets, users and media are kept for display.
    /// Tweets already stored are replaced, so adding the same page twice changes nothing.
    ///
    /// With `collection`, the pages' result tweets also join the collection of that name (made when missing).
    public func insert(_ pages: [Page], collection: String? = nil) async throws {
        try await insertCountingNew(pages, collection: collection)
    }

    /// Writes pages as `insert` does and returns how many of their result tweets the store did not hold before.
    @discardableResult
    func insertCountingNew(_ pages: [Page], collection: String? = nil) async throws -> Int {
        let batch = PreparedBatch(pages, codec: codec)
        return try await database.run { connection in
            try connection.transaction {
                let writer = try Writer(connection: connection)
                let new = try writer.write(batch)
                if let collection { try CollectionMembership.add(connection, batch, to: collection) }
                return new
            }
        }
    }

    /// Counts and size, for `info` and benchmarks.
    public func statistics() async throws -> StoreStatistics {
        try await database.run { connection in
            let tweets = try connection.scalar("SELECT count(*) FROM tweets WHERE (flags & 128) = 0") ?? 0
            let included = try connection.scalar("SELECT count(*) FROM tweets WHERE (flags & 128) != 0") ?? 0
            let users = try connection.scalar("SELECT count(*) FROM users") ?? 0
            let pages = try connection.scalar("PRAGMA page_count") ?? 0
            let pageSize = try connection.scalar("PRAGMA page_size") ?? 0
            return StoreStatistics(
                tweets: Int(tweets), includedTweets: Int(included), users: Int(users),
                databaseBytes: Int(pages * pageSize))
        }
    }

    /// Folds the write-ahead log into the database file and updates the query planner's statistics; worth doing after a
    /// large import.
    public func optimize() async throws {
        try await database.run { connection in
            try connection.execute("INSERT INTO tweets_fts(tweets_fts) VALUES ('optimize'); PRAGMA optimize")
            if case .file = self.location { try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
        }
    }

    /// Checks the database and the full-text index for damage; throws `StoreError` describing what is wrong.
    public func checkIntegrity() async throws {
        try await database.run { connection in
            try connection.execute("INSERT INTO tweets_fts(tweets_fts, rank) VALUES ('integrity-check', 0)")
            let result = try connection.rows("PRAGMA integrity_check") { $0.text(0) }
            if result != ["ok"] {
                throw StoreError(message: "integrity check failed: " + result.prefix(5).joined(separator: "; "))
            }
        }
    }
}

/// How much a store holds.
public struct StoreStatistics: Hashable, Sendable {
    /// Searchable tweets.
    public var tweets: Int
    /// Tweets kept only because others refer to them.
    public var includedTweets: Int
    /// Users.
    public var users: Int
    /// Size of the main database file (without the write-ahead log).
    public var databaseBytes: Int

    /// Creates statistics.
    public init(tweets: Int, includedTweets: Int, users: Int, databaseBytes: Int) {
        self.tweets = tweets
        self.includedTweets = includedTweets
        self.users = users
        self.databaseBytes = databaseBytes
    }
}
