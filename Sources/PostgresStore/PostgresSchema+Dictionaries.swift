extension PostgresSchema {
    /// The zstd dictionaries the originals are compressed with (schema version 4), as in the SQLite store: each blob
    /// is a zstd frame naming its dictionary, so blobs of any dictionary here stay readable, and those written before
    /// version 4 (without one) too. Small objects compressed without a dictionary cost the importer a third of its CPU
    /// and came out about twice as large.
    ///
    /// Roles keep their rights, as in versions 2 and 3: the table gets the grants `tweets` has, so a reader role can
    /// expand originals and an importer role can store the dictionary its first batch trains.
    static let dictionaries = """
        CREATE TABLE IF NOT EXISTS zstd_dictionaries(
            id bigint PRIMARY KEY,
            created double precision NOT NULL,
            body bytea NOT NULL
        );
        \(grantingTweetsPrivileges(on: ["zstd_dictionaries"]))
        """
}
