import CSQLite
import Foundation
import Testing
import TweetKit

@testable import TweetStore

/// What the store says when it cannot do what was asked, and what it does with files it must not write: every error
/// is a sentence that names the file and the cause, never SQLite's text or SQL; read-only stores search; foreign and
/// damaged files are refused and left byte for byte as they were; closing leaves the `.sqlite` file complete.
@Suite("Store errors, read-only and foreign files, checkpoints and backups")
struct StoreRestrictionTests {
    /// Words that would mean SQL or SQLite's internals reached a user.
    static let leaks = ["SELECT", "INSERT", "sqlite3_", "SQLITE_", "syntax error", "no such"]

    static func expectNoLeak(_ error: StoreError, sourceLocation: SourceLocation = #_sourceLocation) {
        for leak in leaks {
            #expect(
                !error.description.contains(leak), "\(error.kind): \(error.description)", sourceLocation: sourceLocation
            )
        }
    }

    /// Every kind, built as SQLite's errors are (with SQL and SQLite's message in the diagnostic): the sentence names
    /// the file, and holds neither.
    @Test func everyKindIsASentenceThatNamesTheFileAndNoSQL() {
        for kind in StoreError.Kind.allCases {
            var error = StoreError(
                kind, path: "/data/tweets.sqlite", detail: kind == .invalidRequest ? "bad cursor" : nil)
            error.diagnostic = "near \"SELECT\": syntax error (in: INSERT INTO tweets … sqlite3_step)"
            Self.expectNoLeak(error)
            if kind != .invalidRequest {
                #expect(error.message.contains("/data/tweets.sqlite"), "\(kind): \(error.message)")
            }
            #expect(!error.message.isEmpty)
        }
    }

    /// Every SQLite result code, primary and extended, maps to a kind whose sentence holds no SQL, however the SQL read.
    @Test func everySQLiteResultCodeMapsToASentence() throws {
        let connection = try Connection(path: ":memory:")
        var kinds = Set<StoreError.Kind>()
        for primary in Int32(1)...Int32(28) {
            for extended in Int32(0)..<Int32(32) {
                let code = primary | extended << 8
                let error = StoreError(code: code, connection: connection.db, sql: "SELECT t.id FROM tweets t; INSERT")
                Self.expectNoLeak(error)
                #expect(error.diagnostic?.contains("SELECT") == true)
                kinds.insert(error.kind)
            }
        }
        #expect(kinds.isSuperset(of: [.locked, .readOnly, .diskFull, .corrupt, .notAStore, .cannotOpen, .ioFailure]))
    }

    /// The errors the store really raises, each provoked: the sentence names the file and the cause.
    @Test func raisedErrorsNameTheFileAndTheCause() async throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("t.sqlite").path
        let store = try TweetStore(location: .file(path))
        try await store.insert([Fixtures.page])
        func raised(_ body: () async throws -> Void) async -> StoreError? {
            do {
                try await body()
                Issue.record("no error")
                return nil
            } catch let error as StoreError {
                Self.expectNoLeak(error)
                return error
            } catch {
                Issue.record("not a StoreError: \(error)")
                return nil
            }
        }

        // Locked: another connection holds the write lock past the busy timeout.
        let other = try Connection(path: path)
        try other.execute("BEGIN IMMEDIATE")
        try await store.database.run { $0.setBusyTimeout(milliseconds: 50) }
        let locked = await raised { try await store.insert([Fixtures.page]) }
        #expect(locked?.kind == .locked)
        #expect(locked?.message.contains(path) == true)
        try other.execute("ROLLBACK")
        other.close()

        // Disk full: the file may not grow.
        try await store.database.run {
            try $0.execute("PRAGMA max_page_count = \(try $0.scalar("PRAGMA page_count")!)")
        }
        let big = Page(
            tweets: (1...400).map { Tweet(id: TweetID(UInt64(5_000 + $0)), text: String(repeating: "x", count: 900)) })
        let full = await raised { try await store.insert([big]) }
        #expect(full?.kind == .diskFull)
        #expect(full?.message.contains(path) == true)

        // Invalid requests: a cursor of nothing, a malformed username.
        let cursor = await raised { _ = try await store.search(SearchRequest(query: "swift"), cursor: "zz") }
        #expect(cursor?.kind == .invalidRequest)
        let user = await raised { _ = try await store.userTimeline(username: "not a name!", cursor: nil, limit: 5) }
        #expect(user?.kind == .invalidRequest)

        // A backup onto an existing file.
        let backup = await raised { _ = try await store.backup(to: path) }
        #expect(backup?.kind == .backupFailed)
        #expect(backup?.message.contains("exists") == true)
        // A backup onto a folder says it is one, and names a file to give instead.
        let folderPath = (path as NSString).deletingLastPathComponent
        let onFolder = await raised { _ = try await store.backup(to: folderPath) }
        #expect(onFolder?.kind == .backupFailed)
        #expect(onFolder?.message.contains("it is a folder") == true, "\(onFolder?.message ?? "")")
        #expect(onFolder?.message.contains("\(folderPath)/tweets-backup.sqlite") == true)

        // Closed: work after close.
        store.close()
        let closed = await raised { _ = try await store.statistics() }
        #expect(closed?.kind == .closed)
        #expect(closed?.message.contains(path) == true)
    }

    /// A NUL in a query used to end the FTS5 expression early and print SQLite's message with the SQL.
    @Test func nulInAQueryIsSearchedAsASeparator() async throws {
        let store = try await Fixtures.store()
        func ids(_ query: String) async throws -> [TweetID] {
            try await store.search(SearchRequest(query: query), cursor: nil).tweets.map(\.id)
        }
        #expect(try await ids("swift\u{0}") == ids("swift"))
        #expect(try await ids("\"exact\u{0}phrase\"") == ids("\"exact phrase\""))
        #expect(try await ids("\u{0}") == [])
    }

    /// Files that are not stores are refused, named, and left exactly as they were: not even switched to WAL.
    @Test func foreignDamagedAndNewerFilesAreRefusedAndLeftUntouched() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        func refused(_ name: String, _ kind: StoreError.Kind, prepare: (String) throws -> Void) throws {
            let path = folder.appendingPathComponent(name).path
            try prepare(path)
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            do {
                let store = try TweetStore(location: .file(path))
                _ = store
                Issue.record("\(name) opened")
            } catch let error as StoreError {
                #expect(error.kind == kind, "\(name): \(error)")
                #expect(error.message.contains(path), "\(name): \(error.message)")
                Self.expectNoLeak(error)
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "\(name) was changed")
            #expect(!FileManager.default.fileExists(atPath: path + "-wal"), "\(name) got a log")
        }
        try refused("notes.txt", .notAStore) { try Data("my notes\n".utf8).write(to: URL(fileURLWithPath: $0)) }
        try refused("random.bin", .notAStore) { path in
            try Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(to: URL(fileURLWithPath: path))
        }
        try refused("places.sqlite", .notAStore) { path in
            let connection = try Connection(path: path)
            try connection.execute(
                "CREATE TABLE moz_places(id INTEGER PRIMARY KEY, url TEXT); INSERT INTO moz_places VALUES (1, 'x')")
        }
        try refused("versioned.sqlite", .notAStore) { path in
            let connection = try Connection(path: path)
            try connection.execute("CREATE TABLE things(a); PRAGMA user_version = 2")
        }
        try refused("newer.sqlite", .newerSchema) { path in
            do { _ = try TweetStore(location: .file(path)) }
            let connection = try Connection(path: path)
            try connection.execute("PRAGMA user_version = 99; PRAGMA journal_mode = DELETE")
        }
        try refused("damaged.sqlite", .corrupt) { path in
            do {
                let store = try TweetStore(location: .file(path))
                store.close()
            }
            // The file header stays valid; the schema's page after it is overwritten.
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try handle.seek(toOffset: 100)
            try handle.write(contentsOf: Data(repeating: 0xA5, count: 4096 - 100))
            try handle.close()
        }
    }

    /// A store opened read-only (by URI, since root ignores file modes) searches, pages, looks up and backs up;
    /// every write is refused as read-only, and the file is not changed.
    @Test func readOnlyStoreSearchesAndRefusesWrites() async throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("t.sqlite").path
        do {
            let store = try TweetStore(location: .file(path))
            try await store.insert([Fixtures.page])
            store.close()
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let store = try TweetStore(location: .file("file:\(path)?mode=ro"))
        #expect(store.isReadOnly)
        #expect(store.path == path)
        let first = try await store.search(SearchRequest(query: "swift", pageSize: 1), cursor: nil)
        #expect(first.tweets.count == 1)
        let next = try await store.search(SearchRequest(query: "swift", pageSize: 1), cursor: first.nextToken)
        #expect(next.tweets.count == 1 && next.tweets != first.tweets)
        #expect(try await store.lookup(ids: [100]).tweets.map(\.id) == [100])
        for write in [
            { try await store.insert([Fixtures.page]) },
            { try await store.recordSearch(SearchHistoryEntry(query: "swift", source: "local", lastRun: Date())) },
            { try await store.storePage(Fixtures.page, key: "k", cursor: nil, fetchedAt: Date()) },
        ] as [() async throws -> Void] {
            do {
                try await write()
                Issue.record("a write succeeded")
            } catch let error as StoreError {
                #expect(error.kind == .readOnly)
                #expect(error.message.contains(path))
                Self.expectNoLeak(error)
            }
        }
        let copy = folder.appendingPathComponent("copy.sqlite").path
        _ = try await store.backup(to: copy)
        let copied = try await TweetStore(location: .file(copy)).statistics()
        let original = try await store.statistics()
        #expect(copied.tweets == original.tweets && copied.users == original.users && copied.tweets > 0)
        store.close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    /// A read-only store that would need writing to be usable says so, rather than failing on its first search.
    @Test func readOnlyStoreThatNeedsWritingIsRefusedWithTheReason() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let empty = folder.appendingPathComponent("empty.sqlite").path
        _ = FileManager.default.createFile(atPath: empty, contents: nil)
        do {
            _ = try TweetStore(location: .file("file:\(empty)?mode=ro"))
            Issue.record("opened")
        } catch let error as StoreError {
            #expect(error.kind == .readOnly && error.message.contains("holds no store yet"), "\(error)")
            #expect(error.message.contains(empty))
        }
        let old = folder.appendingPathComponent("v1.sqlite").path
        let connection = try Connection(path: old)
        try connection.execute(Schema.migrations[0].sql + "; PRAGMA user_version = 1;")
        connection.close()
        do {
            _ = try TweetStore(location: .file("file:\(old)?mode=ro"))
            Issue.record("opened")
        } catch let error as StoreError {
            #expect(error.kind == .readOnly && error.message.contains("older tweetsh"), "\(error)")
        }
    }

    /// Closing folds the write-ahead log into the file: the `.sqlite` file copied alone holds every tweet.
    @Test func closingLeavesTheDatabaseFileComplete() async throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("t.sqlite").path
        let store = try TweetStore(location: .file(path))
        let pages = (0..<20).map { n in
            Page(tweets: (0..<100).map { Tweet(id: TweetID(UInt64(n * 100 + $0 + 1)), text: "tweet \(n) \($0)") })
        }
        try await store.insert(pages)
        let log = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? NSNumber)?.intValue
        #expect((log ?? 0) > 0, "the writes sit in the log before closing")
        store.close()
        store.close()
        let copy = folder.appendingPathComponent("copy.sqlite").path
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        #expect(try await TweetStore(location: .file(copy)).statistics().tweets == 2_000)
    }

    /// A backup is a snapshot: taken while another connection imports batch after batch, each copy is sound and holds
    /// exactly the batches its `imports` row claims.
    @Test func backupDuringAnImportIsConsistent() async throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("t.sqlite").path
        let file = folder.appendingPathComponent("in.jsonl")
        let lines = (1...25_000).map { Fixtures.line(id: $0, text: "row \($0) gamma") }
        try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        let importer = try TweetStore(location: .file(path))
        let backups = try TweetStore(location: .file(path))
        let importing = Task { try await importer.importJSONL(at: file, decodeLine: Fixtures.decodeLine) }
        var copies = 0
        var midway = 0
        while copies < 500 {
            let copy = folder.appendingPathComponent("b\(copies).sqlite").path
            _ = try await backups.backup(to: copy)
            copies += 1
            let snapshot = try TweetStore(location: .file(copy))
            try await snapshot.checkIntegrity()
            let tweets = try await snapshot.statistics().tweets
            let claimed = try await snapshot.database.run {
                try $0.scalar("SELECT coalesce(sum(tweets), 0) FROM imports")
            }
            #expect(Int64(tweets) == claimed, "copy \(copies): \(tweets) tweets, imports claim \(claimed ?? -1)")
            if tweets > 0 && tweets < 25_000 { midway += 1 }
            snapshot.close()
            if tweets == 25_000 { break }
        }
        _ = try await importing.value
        print("backups: \(copies) copies, \(midway) taken mid-import")
    }
}
