extension PostgresSchema {
    /// Version 2 keeps the hot `tweets` heap small and makes filters index terms:
    ///
    /// - The compressed originals move to `tweet_originals` (about 600 of a row's 900 bytes), so a search or a count
    ///   that reads rows reads three times fewer pages; only exports read the originals.
    /// - Each indexed document gains one lexeme per query-able flag (`=f0` retweet … `=f6` hashtags, the bit's index)
    ///   and one for its language (`=l` and the code, ASCII lower-cased as SQLite's `lower`), so `is:`, `has:` and
    ///   `lang:` join the `tsquery`: the planner estimates them from the vector's statistics instead of guessing,
    ///   and the GIN index answers them.
    /// - The table is rewritten once, in id order, into a new `tweets` without the moved column, and its indexes are
    ///   built after the copy. (An `UPDATE` then `CLUSTER` in one transaction would keep every row twice: `CLUSTER`
    ///   keeps the versions its own transaction deleted, as that transaction might still roll back.)
    ///
    /// - Statistics on `flags & 128` (`CREATE STATISTICS` on the expression): every search has
    ///   `(t.flags & 128) = 0`, which the planner otherwise guesses at 0.5%, so it took a common word for a rare one
    ///   (`the` on 1M tweets: 1,509 rows expected for 300,000).
    ///
    /// - A statistics target of 1,000 on `doc` (ten times the default): the planner estimates a lexeme outside its
    ///   list of common ones from the rarest on that list, and with the default it expected 1,233 matches for two
    ///   rare words that have 48, then scanned 1M rows backwards by id for a page of them (1.2 s).
    ///
    /// Roles keep their rights: both new tables get the grants the old `tweets` had.
    static let version2 = """
        SET LOCAL maintenance_work_mem = '512MB';
        CREATE TABLE tweet_originals(
            id bigint PRIMARY KEY,
            original bytea NOT NULL
        );
        INSERT INTO tweet_originals(id, original) SELECT id, original FROM tweets WHERE original IS NOT NULL;
        CREATE TABLE tweets_version2(
            id bigint NOT NULL,
            author_id bigint,
            created_at bigint,
            conversation_id bigint,
            reply_to_user bigint,
            lang text,
            flags bigint NOT NULL,
            likes bigint NOT NULL DEFAULT 0,
            reposts bigint NOT NULL DEFAULT 0,
            replies bigint NOT NULL DEFAULT 0,
            quotes bigint NOT NULL DEFAULT 0,
            text text NOT NULL,
            extra bytea,
            doc tsvector NOT NULL DEFAULT ''::tsvector
        );
        INSERT INTO tweets_version2(
            id, author_id, created_at, conversation_id, reply_to_user, lang, flags, likes, reposts, replies, quotes,
            text, extra, doc)
        SELECT id, author_id, created_at, conversation_id, reply_to_user, lang, flags, likes, reposts, replies, quotes,
            text, extra,
            CASE WHEN (flags & 128) <> 0 THEN doc ELSE doc || array_to_tsvector(ARRAY(
                SELECT '=f' || b FROM generate_series(0, 6) AS b WHERE (flags & (1::bigint << b)) <> 0
                UNION ALL
                SELECT '=l' || translate(lang, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')
                WHERE lang IS NOT NULL)) END
        FROM tweets ORDER BY id;
        \(grantingTweetsPrivileges(on: ["tweet_originals", "tweets_version2"]))
        DROP TABLE tweets;
        ALTER TABLE tweets_version2 RENAME TO tweets;
        ALTER TABLE tweets ADD CONSTRAINT tweets_pkey PRIMARY KEY (id);
        CREATE INDEX tweets_doc ON tweets USING gin(doc);
        CREATE STATISTICS tweets_included_only ON ((flags & 128)) FROM tweets;
        ALTER TABLE tweets ALTER COLUMN doc SET STATISTICS 1000;
        ANALYZE tweets;
        """

    /// A block that gives each of `tables` the privileges other roles hold on `tweets`, so a table a migration adds
    /// is readable and writable by the roles `store init` made, as `tweets` is.
    static func grantingTweetsPrivileges(on tables: [String]) -> String {
        let grants = tables.map { table in
            "        EXECUTE format('GRANT %s ON \(table) TO %I', grant_row.privilege_type, grant_row.grantee);"
        }
        return """
            DO $$
            DECLARE grant_row record;
            BEGIN
                FOR grant_row IN
                    SELECT grantee, privilege_type FROM information_schema.role_table_grants
                    WHERE table_name = 'tweets' AND table_schema = current_schema() AND grantee <> current_user
                LOOP
            \(grants.joined(separator: "\n"))
                END LOOP;
            END $$;
            """
    }
}
