extension Schema {
    /// Version 4 keeps the handles of users replied to, by id, where no user object names them: an X account archive
    /// has `in_reply_to_screen_name` in its entries but no users besides its owner. `to:handle` resolves the handle
    /// through `users` and this table. Nothing else reads it, so exports never show these as users.
    static let replyHandlesMigration = Migration(
        sql: """
            CREATE TABLE reply_handles(
                username TEXT NOT NULL COLLATE NOCASE,
                id INTEGER NOT NULL,
                PRIMARY KEY(username, id)
            ) WITHOUT ROWID;
            """)
}
