extension Schema {
    /// The page size a new store file is created with (SQLite's default is 4,096). An import writes rows of about
    /// 600 bytes and FTS5 segments of about 4 KB; twice the page size halves the B-tree pages an import dirties and
    /// writes to the log. It can only be chosen before the file's first table, so existing stores keep theirs.
    static let newStorePageSize = 8_192

    /// FTS5 settings a new store's index is created with; FTS5 keeps them in `tweets_fts_config`, so they are no
    /// schema change and stores created before keep the defaults.
    ///
    /// - `hashsize`: how many bytes of new entries FTS5 gathers in memory before it writes them as a segment
    ///   (default 1 MB). An import batch of 5,000 tweets gathers more than that (their unique `c` and `p` tokens
    ///   included), so at the default each batch became two or more small segments for later merges to write again;
    ///   at 16 MB each batch is one segment, written when the transaction commits.
    /// - `automerge`: how many segments of one level FTS5 merges at a time (default 4). At 16 every entry is
    ///   rewritten about half as often on its way to the larger levels, for more segments to read until `optimize`.
    ///
    /// docs/benchmarks.md ("Branch perf12 against main") has the measurements.
    static let newIndexSettings = """
        INSERT INTO tweets_fts(tweets_fts, rank) VALUES ('hashsize', 16777216);
        INSERT INTO tweets_fts(tweets_fts, rank) VALUES ('automerge', 16);
        """
}
