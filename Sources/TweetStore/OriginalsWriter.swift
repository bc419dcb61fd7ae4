import Foundation

/// Writes the store's originals beside the rows `Writer` writes, in the same transaction.
enum OriginalsWriter {
    /// Stores a dictionary once; blobs name it by id, so it must commit with the first batch that uses it.
    static func store(_ dictionary: OriginalsCodec.Dictionary, _ connection: Connection) throws {
        if connection.storedDictionaries.contains(dictionary.id) { return }
        try connection.withStatement(
            "INSERT OR IGNORE INTO zstd_dictionaries(id, created, body) VALUES (?,?,?)",
            [.integer(Int64(dictionary.id)), .real(Date().timeIntervalSince1970), .blob(dictionary.bytes)]
        ) { try $0.run() }
        // Remembered only once the transaction commits, so a rolled-back batch does not leave it unstored.
        connection.pendingDictionaries.insert(dictionary.id)
    }

    /// Stores (or replaces) a user's, media item's, place's or poll's original.
    static func store(_ kind: Schema.OriginalKind, _ key: String, _ blob: [UInt8], _ connection: Connection) throws {
        try connection.withStatement(
            "INSERT OR REPLACE INTO originals(kind, key, body) VALUES (?,?,?)",
            [.integer(kind.rawValue), .text(key), .blob(blob)]
        ) { try $0.run() }
    }

    /// The ids of `__twarc` blocks, each stored once; a batch of twarc2 lines holds a few dozen distinct ones.
    struct TwarcBlocks {
        private var ids: [String: Int64] = [:]
        private var last: (block: String, id: Int64)?

        mutating func id(of block: String, _ connection: Connection) throws -> Int64 {
            // Tweets of one page come together and share one string, so the equality check is mostly a pointer check.
            if let last, last.block == block { return last.id }
            if let id = ids[block] {
                last = (block, id)
                return id
            }
            try connection.withStatement("INSERT OR IGNORE INTO twarc_blocks(body) VALUES (?)", [.text(block)]) {
                try $0.run()
            }
            let id =
                try connection.withStatement("SELECT id FROM twarc_blocks WHERE body = ?", [.text(block)]) { row in
                    try row.step() ? row.int64(0) : nil
                } ?? 0
            ids[block] = id
            last = (block, id)
            return id
        }
    }
}
