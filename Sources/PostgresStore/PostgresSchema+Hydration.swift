extension PostgresSchema {
    /// The hydration ledger (schema step "hydration", version 3 once the originals step is version 2): per
    /// collection, every id a hydration has an answer for, NULL `reason` for hydrated, else why X did not return it.
    /// It belongs to its collection, so dropping the collection forgets the answers and a later hydration asks again.
    static let hydration = """
        CREATE TABLE IF NOT EXISTS hydrated_ids(
            collection text NOT NULL REFERENCES collections(name) ON DELETE CASCADE,
            id bigint NOT NULL,
            reason text,
            detail text,
            PRIMARY KEY(collection, id)
        );
        """
}
