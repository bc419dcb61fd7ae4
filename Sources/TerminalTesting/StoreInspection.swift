import Foundation

/// Looks inside a tweetsh store from outside the program, with the sqlite3 command-line shell, the way a person
/// checking a store after a crash would: the product's own code is not trusted to judge its own file.
///
/// The SQL relies on the store's schema: `tweets` (flag 128 marks a tweet kept only because another refers to it),
/// the contentless FTS5 index `tweets_fts` with its per-document `tweets_fts_docsize` table, `users`, `imports`.
public struct StoreInspection: Sendable {
    /// What went wrong running sqlite3.
    public struct Failure: Error, CustomStringConvertible {
        /// The explanation, with sqlite3's own message.
        public let description: String
    }

    /// The sqlite3 shell used; CI images have it at this path.
    public static let sqlite3 = "/usr/bin/sqlite3"

    /// The database file.
    public let path: String

    /// Inspects the store at `path`.
    public init(path: String) {
        self.path = path
    }

    /// Runs `sql` (one or more statements) and returns the output lines; `|` separates columns.
    public func query(_ sql: String) throws -> [String] {
        let run = try ProcessRun.run(
            Self.sqlite3, arguments: ["-batch", "-bail", path, sql], environment: [:], timeout: 300)
        guard run.status == 0 else {
            throw Failure(description: "sqlite3 \(path) failed (\(run.status)): \(run.standardError) for: \(sql)")
        }
        return run.standardOutput.split(separator: "\n").map(String.init)
    }

    /// Problems found by `PRAGMA integrity_check` and by FTS5's own `integrity-check` of the index structure; empty
    /// when the store is sound.
    public func integrityProblems() -> [String] {
        var problems: [String] = []
        do {
            let lines = try query("PRAGMA integrity_check;")
            if lines != ["ok"] { problems += lines }
        } catch {
            problems.append(String(describing: error))
        }
        do {
            _ = try query("INSERT INTO tweets_fts(tweets_fts, rank) VALUES ('integrity-check', 0);")
        } catch {
            problems.append(String(describing: error))
        }
        return problems
    }

    /// The counts that must agree in a consistent store.
    public func counts() throws -> StoreCounts {
        let sql = """
            SELECT (SELECT count(*) FROM tweets WHERE flags & 128 = 0),
                   (SELECT count(*) FROM tweets WHERE flags & 128 != 0),
                   (SELECT count(*) FROM tweets_fts_docsize),
                   (SELECT count(*) FROM users),
                   (SELECT count(*) FROM tweets t WHERE t.flags & 128 = 0
                        AND NOT EXISTS (SELECT 1 FROM tweets_fts_docsize d WHERE d.id = t.id)),
                   (SELECT count(*) FROM tweets_fts_docsize d
                        WHERE NOT EXISTS (SELECT 1 FROM tweets t WHERE t.id = d.id AND t.flags & 128 = 0)),
                   (SELECT count(*) FROM tweets t WHERE t.author_id IS NOT NULL
                        AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id = t.author_id)),
                   (SELECT count(*) FROM search_history);
            """
        let fields = try query(sql).first?.split(separator: "|").compactMap { Int($0) } ?? []
        guard fields.count == 8 else { throw Failure(description: "unexpected counts from \(path): \(fields)") }
        return StoreCounts(
            searchable: fields[0], includedOnly: fields[1], indexed: fields[2], users: fields[3],
            searchableWithoutIndexEntry: fields[4], indexEntriesWithoutTweet: fields[5], tweetsWithoutAuthor: fields[6],
            searchHistory: fields[7])
    }

    /// The progress record of imports: `(path, lines, tweets, finished)` per imported file.
    public func imports() throws -> [(path: String, line: Int, tweets: Int, finished: Bool)] {
        try query("SELECT path, line, tweets, finished FROM imports ORDER BY path;").map { row in
            let parts = row.split(separator: "|").map(String.init)
            return (parts[0], Int(parts[1]) ?? -1, Int(parts[2]) ?? -1, parts[3] == "1")
        }
    }

    /// Copies a store (its database file and write-ahead log, if any) that no process has open.
    public static func copy(from source: String, to destination: String) throws {
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: source + suffix) {
            try? FileManager.default.removeItem(atPath: destination + suffix)
            try FileManager.default.copyItem(atPath: source + suffix, toPath: destination + suffix)
        }
    }
}

/// Row counts of a store, and the counts of rows that break its invariants (each of those must be zero).
public struct StoreCounts: Equatable, Sendable, CustomStringConvertible {
    /// Tweets that search finds (not flagged as included-only).
    public var searchable: Int
    /// Tweets kept only because a searchable tweet refers to them.
    public var includedOnly: Int
    /// Documents in the full-text index.
    public var indexed: Int
    /// Users.
    public var users: Int
    /// Searchable tweets missing from the index: a half-written tweet.
    public var searchableWithoutIndexEntry: Int
    /// Index entries whose tweet is missing or not searchable: a half-written or half-deleted tweet.
    public var indexEntriesWithoutTweet: Int
    /// Tweets whose author row is missing.
    public var tweetsWithoutAuthor: Int
    /// Rows in the search history table.
    public var searchHistory: Int

    /// Whether every invariant holds: index and table agree one to one, and every author is present.
    public var isConsistent: Bool {
        searchable == indexed && searchableWithoutIndexEntry == 0 && indexEntriesWithoutTweet == 0
            && tweetsWithoutAuthor == 0
    }

    /// All the numbers, for failure messages and reports.
    public var description: String {
        "searchable \(searchable), included-only \(includedOnly), indexed \(indexed), users \(users), "
            + "unindexed \(searchableWithoutIndexEntry), stray index entries \(indexEntriesWithoutTweet), "
            + "authorless \(tweetsWithoutAuthor), search history \(searchHistory)"
    }
}
