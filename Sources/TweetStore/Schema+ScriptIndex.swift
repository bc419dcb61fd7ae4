extension Schema {
    /// Version 3 indexes Chinese, Japanese, Korean and Thai runs as overlapping bigrams (`ScriptNGrams`), so words
    /// inside longer runs are found. The tokenizer also keeps combining marks (`M*`) inside tokens: Thai vowel and
    /// tone marks (and Indic vowel signs) were word breaks before, which cut every Thai word into pieces. The
    /// tokenizer of an FTS5 table cannot change, so the step makes the index again and `rebuildIndex` fills it.
    static let scriptIndexMigration = Migration(sql: scriptIndexSQL, rebuild: rebuildIndex)

    /// The full-text table of version 3; its columns are those of version 2.
    private static let scriptIndexSQL = """
        DROP TABLE tweets_fts;
        CREATE VIRTUAL TABLE tweets_fts USING fts5(
            body, tags, cashtags, mentions, urls, refs,
            content = '',
            tokenize = "unicode61 remove_diacritics 2 categories 'L* N* Co M*' tokenchars '_'"
        );
        """
}
