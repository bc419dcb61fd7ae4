import Foundation
import TweetKit

/// Everything the shell asks of a store, so it can hold the SQLite file (`TweetStore`) or the shared PostgreSQL
/// database (`PostgresStore`) alike: searching and paging (`TweetSource`), the API's page cache (`PageCache`),
/// imports, collections, exports with originals, the explore commands, hydration bookkeeping and search history.
///
/// It lives beside `TweetStore` rather than in TweetKit because its reports (`ImportReport`, `CollectionInfo`,
/// `HydrationLedger`, …) are the SQLite store's, and `PostgresStore` already builds on this target. A store that
/// cannot do something yet throws `StoreError.unavailable(_:on:)`, a sentence naming the command, never SQL.
public protocol CollectionStore: TweetSource, PageCache {
    /// Why the store is read-only for this user (its file cannot be written, the role may only read, the server is a
    /// replica); nil when it can be written.
    var readOnlyReason: String? { get }
    /// Where the store lives, for messages: the file's path, or the server's address with its password masked.
    var displayLocation: String { get }
    /// What kind of store it is, in messages ("SQLite store", "PostgreSQL store").
    var kindName: String { get }
    /// Whether searches are remembered (search history and `more` after a restart) even when the store is read-only:
    /// true where the history lives on the user's own machine rather than in the store.
    var keepsHistoryWhenReadOnly: Bool { get }

    /// Ends the store's use: a statement still running stops; safe more than once and from any thread.
    func close()
    /// One page of matches for an already parsed query.
    func search(_ query: SearchQuery, request: SearchRequest, cursor: String?) async throws -> Page
    /// Writes pages (an API response, a stream's batch) in one transaction; their result tweets join `collection`.
    func insert(_ pages: [Page], collection: String?) async throws
    /// Imports JSON from a file or standard input into `collection` (default: the input's name), resuming an
    /// interrupted import of the same file.
    func importJSON(
        from input: ImportInput, collection: String?, progress: (@Sendable (ImportProgress) -> Void)?
    ) async throws -> ImportReport
    /// Imports an X account archive (a folder or a `.zip` of one).
    func importArchive(
        at url: URL, collection: String?, progress: (@Sendable (ImportProgress) -> Void)?
    ) async throws -> ImportReport
    /// Whether searches leave the demo corpus out (once other data is there).
    func hidesDemoCorpus() async throws -> Bool
    /// Writes `make()`'s pages when the store has never held anything; returns whether it did.
    func seedIfEmpty(collection: String?, _ make: @escaping @Sendable () -> [Page]) async throws -> Bool
    /// Every collection with its count and date range.
    func collections() async throws -> [CollectionInfo]
    /// The collections' names alone, in the order `collections` lists them: no counting, so it is cheap at any size.
    func collectionNames() async throws -> [String]
    /// Deletes a collection; its tweets that another collection holds stay.
    func drop(collection name: String) async throws -> DropReport
    /// The page with the originals of its objects filled in, for an export that writes them as they came.
    func withOriginals(_ page: Page) async throws -> Page
    /// Writes every match of `query` to `writer`, with originals, a page at a time; returns how many were written.
    func exportAll(
        _ query: SearchQuery, request: SearchRequest, to writer: ExportFileWriter, progress: (@Sendable (Int) -> Void)?
    ) async throws -> Int
    /// The stored tweets of the thread a tweet belongs to, oldest first, and the thread's root.
    func thread(of id: TweetID, limit: Int) async throws -> (root: TweetID, page: Page)
    /// Copies the store to a new file at `path`.
    func backup(to path: String) async throws -> BackupReport
    /// Matches of `query` counted per time bucket.
    func countByTime(_ query: SearchQuery, request: SearchRequest, granularity: CountGranularity) async throws
        -> CountSeries
    /// The most frequent hashtags, mentions, authors, … among the matches of `query` (all tweets when nil).
    func topList(_ kind: TopKind, query: SearchQuery?, request: SearchRequest, limit: Int) async throws -> TopList
    /// The figures `stats` shows for a collection (all searchable tweets when nil).
    func overview(collection: String?) async throws -> CollectionOverview
    /// Prepares pages for `insert(_:collection:alsoInto:)` on the calling thread (the SQLite store builds its rows
    /// here; others may keep the pages as they are).
    func prepare(_ pages: [Page]) -> PreparedPages
    /// Writes prepared pages in one transaction: their result tweets join `collection`, and the ids of `alsoInto`
    /// also join its collection.
    func insert(_ prepared: PreparedPages, collection: String, alsoInto: (collection: String, ids: [TweetID])?)
        async throws
    /// Prepares one hydration batch for `recordHydrations(_:collection:)` on the calling thread.
    func prepareHydration(_ page: Page, hydrated: [TweetID], missing: [HydrationMiss]) -> PreparedHydration
    /// Commits several hydration batches' answers in one transaction.
    func recordHydrations(_ answers: [PreparedHydration], collection: String) async throws
    /// Which ids of `collection` have been hydrated or found missing.
    func hydrationLedger(collection: String) async throws -> HydrationLedger
    /// Stores a hydrated page and records its ids' answers.
    func recordHydration(_ page: Page, collection: String, hydrated: [TweetID], missing: [HydrationMiss]) async throws
    /// Records a search run, replacing the earlier record of the same query on the same source.
    func recordSearch(_ entry: SearchHistoryEntry) async throws
    /// Recent searches, most recent first.
    func searchHistory(limit: Int) async throws -> [SearchHistoryEntry]
    /// The record of `query` on `source`, if it ran before.
    func lastSearch(query: String, source: String) async throws -> SearchHistoryEntry?
    /// Whether a file at `path` (absolute and standardized, as `ImportInput.path` gives it) was imported into the store,
    /// so that an export never writes over the data a collection came from.
    func hasImported(path: String) async throws -> Bool
}

extension CollectionStore {
    /// True when this user cannot write to the store.
    public var isReadOnly: Bool { readOnlyReason != nil }
}

extension TweetStore: CollectionStore {
    /// The file's path (`:memory:` for a store in memory).
    public var displayLocation: String { path ?? ":memory:" }
    /// `SQLite store`.
    public var kindName: String { "SQLite store" }
    /// False: the SQLite store keeps its history in its own file, which a read-only store cannot write.
    public var keepsHistoryWhenReadOnly: Bool { false }
}

extension StoreError {
    /// The error of a command whose store side does not exist for this kind of store yet: "`what` is not available on
    /// a PostgreSQL store yet".
    public static func unavailable(_ what: String, on kind: String) -> StoreError {
        StoreError(message: "\(what) is not available on a \(kind) yet")
    }
}

extension PreparedPages {
    /// Pages kept as they are, for a store that builds its rows itself when it writes them.
    package static func unprepared(_ pages: [Page]) -> PreparedPages {
        PreparedPages(batch: PreparedBatch([]), pages: pages)
    }
}

extension PreparedHydration {
    /// A page and its answers kept as they are, for a store that builds its rows itself when it writes them.
    package static func unprepared(_ page: Page, hydrated: [TweetID], missing: [HydrationMiss]) -> PreparedHydration {
        PreparedHydration(batch: PreparedBatch([]), hydrated: hydrated, missing: missing, pages: [page])
    }
}
