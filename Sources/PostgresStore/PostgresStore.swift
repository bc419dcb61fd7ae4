import Foundation
import TweetKit
import TweetStore

/// The shared store: tweets in a PostgreSQL database that several people search at once, behind the same protocols
/// as the SQLite `TweetStore` (`TweetSource`, `PageCache`, imports, collections).
///
/// One store holds one connection and uses it for one command at a time, on a serial queue of its own, so a running
/// query never holds a thread of Swift's cooperative pool. When the server goes away mid-command the
/// command fails with `PostgresError.connectionLost`, the connection is dropped, and the next command connects again.
public final class PostgresStore: TweetSource, PageCache, Sendable {
    /// `local`: to the shell this store is its own source (as the SQLite file is), not the X API; `kindName` says
    /// which kind of store it is.
    public let name = "local"
    /// The address with any password masked, for every message, history entry and log line.
    public let address: String
    /// Counting stops here, as in the SQLite store (and by default at the same 1,000).
    public let countLimit: Int
    /// Why this user cannot write (the role may only read, or the server is a read replica); nil when it can.
    public let readOnlyReason: String?
    /// Where the search history lives: an SQLite store on the user's own machine (XDG state), never the server, so
    /// read-only users keep theirs; in memory when none was given.
    let history: TweetStore
    /// The one connection, on its own serial queue (ConnectionQueue.swift).
    let connections: ConnectionQueue
    /// Compresses and expands the originals with the store's zstd dictionaries: those stored when it opened, the one
    /// its first large batch trains, and any another importer stored later (fetched when a blob names it).
    let codec: OriginalsCodec

    /// Opens the store at `address` (a `postgresql://` URL, a libpq key/value string, or "" for the `PG*`
    /// variables). With `migrate`, a store without the current schema is created or upgraded (under an advisory
    /// lock); without it, a store whose schema is missing or old is refused with a message naming `store init`.
    /// `history` is where this user's search history is kept (`historyLocation(for:environment:)`); nil keeps it in
    /// memory.
    public init(
        address: String, migrate: Bool = true, countLimit: Int = 1_000, history: StoreLocation? = nil
    ) throws {
        self.address = ConnectionAddress.masked(address)
        self.countLimit = countLimit
        let opened = try PGConnection(conninfo: address)
        if !migrate {
            let version = try PostgresSchema.version(opened)
            if version > PostgresSchema.currentVersion {
                throw PostgresError(.newerSchema, address: opened.address)
            }
            if version < PostgresSchema.currentVersion { throw Self.notCurrent(version, opened) }
        }
        readOnlyReason = try Self.readOnlyReason(opened)
        // Only an old or missing schema is migrated: the roles `store init` makes may write rows but not create
        // tables, and open a current store without trying to.
        if migrate {
            let version = try PostgresSchema.version(opened)
            if version > PostgresSchema.currentVersion { throw PostgresError(.newerSchema, address: opened.address) }
            if version < PostgresSchema.currentVersion {
                do {
                    try PostgresSchema.migrate(opened)
                } catch let error as PostgresError where error.kind == .readOnly {
                    // A role that may not create tables needs the owner to set the store up (or upgrade it) first.
                    throw Self.notCurrent(version, opened)
                }
            }
        }
        // Oldest first, so the newest becomes the one new originals use, as in the SQLite store.
        let dictionaries = try opened.rows(
            "SELECT body FROM zstd_dictionaries ORDER BY created, id", doing: "opening the store"
        ) { $0.bytes(0) }
        codec = OriginalsCodec()
        codec.install(dictionaries)
        self.history = try TweetStore(location: history ?? .inMemory, countLimit: 0)
        connections = ConnectionQueue(conninfo: address, opened: opened)
    }

    /// The error for a schema this user cannot bring to the current version: none yet, or an older one.
    private static func notCurrent(_ version: Int, _ connection: PGConnection) -> PostgresError {
        version == 0
            ? PostgresError(.notInitialized, address: connection.address)
            : PostgresError(.olderSchema, address: connection.address, detail: String(version))
    }

    /// Why `connection`'s user cannot write to the store, or nil. A database without the schema yet counts as
    /// writable: opening it creates the schema, or fails with the server's refusal when the role may not.
    private static func readOnlyReason(_ connection: PGConnection) throws -> String? {
        if try connection.scalar("SELECT pg_is_in_recovery()::int", doing: "opening the store") == 1 {
            return "the server is a read replica"
        }
        let exists = try connection.scalar(
            "SELECT (to_regclass('tweets') IS NOT NULL)::int", doing: "opening the store")
        guard exists == 1 else { return nil }
        let writable = try connection.scalar(
            "SELECT has_table_privilege('tweets', 'INSERT')::int", doing: "opening the store")
        return writable == 1 ? nil : "your role may only read it"
    }

    /// Creates or upgrades the schema; returns whether this call did the work (false when it was done already, or
    /// another process did it while this one waited for the lock).
    public func migrate() throws -> Bool {
        try withConnectionNow { try PostgresSchema.migrate($0) }
    }

    /// The server process of the current connection (connecting first when there is none).
    public func serverProcessID() throws -> Int32 {
        try withConnectionNow { $0.serverProcessID }
    }

    /// Closes the connection: a statement still running is cancelled on the server first (its transaction rolls
    /// back, and its command fails with `closed`, as do commands still waiting their turn), so this returns at once
    /// rather than when the query would have ended. A later command opens a new connection.
    public func close() {
        connections.close()
    }

    /// Runs `body` on the store's connection queue while the calling task waits suspended (never blocking a thread
    /// of the cooperative pool), connecting first when there is no connection (or the last one broke). A lost
    /// connection is dropped so the next call reconnects. Cancelling the task does not stop `body` (writes commit
    /// whole); `withCancellableConnection` is the cancellable form.
    func withConnection<T: Sendable>(_ body: @escaping (PGConnection) throws -> T) async throws -> T {
        try await connections.run(cancellable: false) { connection, _ in try body(connection) }
    }

    /// `withConnection` for the synchronous methods: the calling thread waits for the queue.
    func withConnectionNow<T>(_ body: (PGConnection) throws -> T) throws -> T {
        try connections.runNow { connection, _ in try body(connection) }
    }

    // MARK: TweetSource

    /// One page of matches for `request.query`; `cursor` is the previous page's `nextToken`.
    public func search(_ request: SearchRequest, cursor: String?) async throws -> Page {
        try await search(SearchQuery(parsing: request.query), request: request, cursor: cursor)
    }

    /// One page of matches for an already parsed query (the request's `query` text is ignored).
    public func search(_ query: SearchQuery, request: SearchRequest, cursor: String?) async throws -> Page {
        let countLimit = self.countLimit
        return try await withCancellableConnection { connection in
            try PostgresSearch(connection: connection, countLimit: countLimit)
                .search(query, request: request, cursor: cursor)
        }
    }

    /// The stored tweets with these ids, in the order asked; unknown ids come back as `Not Found Error`s, as from X.
    public func lookup(ids: [TweetID]) async throws -> Page {
        try await withConnection { connection in
            let reader = PostgresReader(connection: connection)
            let stored = try reader.tweets(ids)
            var found: [Tweet] = []
            var errors: [PartialError] = []
            for id in ids {
                if let tweet = stored[id] {
                    found.append(tweet)
                } else {
                    errors.append(
                        PartialError(
                            value: id.description, detail: "Could not find tweet with ids: [\(id)].",
                            title: "Not Found Error", resourceType: "tweet", parameter: "ids",
                            resourceID: id.description, type: "https://api.twitter.com/2/problems/resource-not-found"))
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
            throw PostgresError(.invalidRequest, address: address, detail: "'\(username)' is not a username")
        }
        let request = SearchRequest(query: "from:\(handle)", pageSize: limit)
        return try await search(SearchQuery(.term(.from(handle))), request: request, cursor: cursor)
    }

    /// The stored tweets of a conversation, newest first (`conversation_id:id`).
    public func conversation(id: TweetID, cursor: String?, limit: Int) async throws -> Page {
        let request = SearchRequest(query: "conversation_id:\(id)", pageSize: limit)
        return try await search(SearchQuery(.term(.conversationID(id))), request: request, cursor: cursor)
    }

    /// How many tweets (results, not tweets stored only as references), users and media the store holds.
    public func counts() throws -> (tweets: Int, users: Int, media: Int) {
        try withConnectionNow { connection in
            let tweets = try connection.scalar("SELECT count(*) FROM tweets WHERE (flags & 128) = 0") ?? 0
            let users = try connection.scalar("SELECT count(*) FROM users") ?? 0
            let media = try connection.scalar("SELECT count(*) FROM media") ?? 0
            return (Int(tweets), Int(users), Int(media))
        }
    }
}

extension PostgresStore {
    /// Writes pages (an API response, a stream's batch) in one transaction; their result tweets join `collection`.
    public func insert(_ pages: [Page], collection: String? = nil) async throws {
        try await write(pages, collection: collection)
    }

    /// Writes pages as `insert` does and returns how many result tweets were new.
    @discardableResult
    public func write(_ pages: [Page], collection: String? = nil) async throws -> Int {
        let codec = self.codec
        return try await withConnection { connection in
            try connection.transaction {
                try PostgresWriter(connection: connection, codec: codec).write(pages, collection: collection)
            }
        }
    }
}
