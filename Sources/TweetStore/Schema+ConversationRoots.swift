extension Schema {
    /// Version 8 indexes a tweet that starts a conversation without a `c<its own id>` token (`TweetDocument.refs`):
    /// `conversation_id:` finds it by id instead (`QueryCompiler.conversationCondition`). Those tokens were terms of
    /// one tweet each, most of the index's terms, and sorting and writing them took a large part of every import's
    /// commits (docs/benchmarks.md, "Conversation roots by id").
    ///
    /// The index is contentless, so removing a tweet's entry needs the tokens it was indexed with, computed from the
    /// row by today's `TweetDocument`. An index keeping the old tokens would no longer match it, so the step makes the
    /// index again from the rows, with the FTS5 settings of a new store (`newIndexSettings`), since it is one.
    static let conversationRootsMigration = Migration(
        sql: scriptIndexSQL + "\n" + newIndexSettings, rebuild: rebuildIndex)
}
