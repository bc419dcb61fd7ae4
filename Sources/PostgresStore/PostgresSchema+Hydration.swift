extension PostgresSchema {
    /// The hydration ledger (schema version 3, after version 2 moved the originals out of `tweets`): per
    /// collection, every id a hydration has an answer for, NULL `reason` for hydrated, else why X did not return it.
    /// It belongs to its collection, so dropping the collection forgets the answers and a later hydration asks again.
    /// `reply_handles` keeps the handles of users an archive's tweets reply to, for `to:handle`.
    ///
    /// Roles keep their rights, as in version 2: both tables get the grants `tweets` has, so the roles `store init`
    /// made on an older store can read (the reader) and write (the importer) them, as on a store made at version 3.
    static let hydration = """
        CREATE TABLE IF NOT EXISTS hydrated_ids(
            collection text NOT NULL REFERENCES collections(name) ON DELETE CASCADE,
            id bigint NOT NULL,
            reason text,
            detail text,
            PRIMARY KEY(collection, id)
        );
        CREATE TABLE IF NOT EXISTS reply_handles(
            username text NOT NULL,
            id bigint NOT NULL,
            PRIMARY KEY(username, id)
        );
        CREATE INDEX IF NOT EXISTS reply_handles_username ON reply_handles(lower(username));
        \(grantingTweetsPrivileges(on: ["hydrated_ids", "reply_handles"]))
        """
}
