import TweetKit

/// What a drop did to the tweets and what they named.
struct SweptObjects {
    /// The collection's own tweets deleted.
    var deleted = 0
    /// The collection's own tweets kept as included-only, since remaining tweets name them.
    var demoted = 0
    /// Included-only tweets deleted.
    var includedTweets = 0
    /// Users deleted.
    var users = 0
    /// Media deleted.
    var media = 0
}

extension TweetStore {
    /// Removes the tweets `own` (the dropped collection's, held by no other collection; its memberships are gone
    /// already) and what only they name, inside the drop's transaction, as `OrphanSweep` decides.
    static func dropTweets(_ own: [Int64], _ connection: Connection) throws -> SweptObjects {
        let reader = OriginalsReader(connection: connection)
        var sweep = OrphanSweep()
        let select = try connection.prepare(
            "SELECT \(TweetRecord.columns), t.original, t.twarc FROM tweets t WHERE t.id = ?")
        func names(_ id: Int64, includedOnly: Bool = false) throws -> NamedObjects? {
            select.bind(id, at: 1)
            defer { select.reset() }
            guard try select.step() else { return nil }
            if includedOnly, !TweetFlags(rawValue: select.int64(6)).contains(.includedOnly) { return nil }
            return try Self.names(select, reader, objects: true)
        }
        for id in own { if let names = try names(id) { sweep.dropped(names) } }
        // The included tweets the dropped ones named, and those these name in turn.
        while case let unread = sweep.unreadCandidates, !unread.isEmpty {
            var absent: [TweetID] = []
            for id in unread.sorted() {
                if let names = try names(Int64(bitPattern: id.rawValue), includedOnly: true) {
                    sweep.candidate(names)
                } else {
                    absent.append(id)
                }
            }
            sweep.notIncluded(absent)
        }
        // One pass over every other tweet. Originals are expanded only while a place or poll is in question.
        let pass = try connection.prepare("SELECT \(TweetRecord.columns), t.original, t.twarc FROM tweets t")
        defer { pass.reset() }
        while !sweep.isSettled, try pass.step() {
            guard !sweep.isCandidate(TweetID(UInt64(bitPattern: pass.int64(0)))) else { continue }
            let includedOnly = TweetFlags(rawValue: pass.int64(6)).contains(.includedOnly)
            sweep.remaining(try Self.names(pass, reader, objects: sweep.needsOriginals), includedOnly: includedOnly)
        }
        try sweep.settle { ids in try ids.compactMap { try names(Int64(bitPattern: $0.rawValue)) } }
        return try carryOut(sweep, own, connection)
    }

    /// A row's names; `objects` expands the original for its place and polls. A damaged original names nothing, so it
    /// cannot stop a drop (what it named then may go).
    private static func names(_ row: Statement, _ reader: OriginalsReader, objects: Bool) throws -> NamedObjects {
        var names = NamedObjects(try TweetRecord.relations(from: row), twarc: row.optionalInt64(14))
        if objects, let stored = StoredOriginal(row, column: 13), let bytes = try? reader.expand(stored.blob) {
            (names.place, names.polls) = OriginalJSON(bytes: bytes).placeAndPolls
        }
        return names
    }

    private static func carryOut(_ sweep: OrphanSweep, _ own: [Int64], _ connection: Connection) throws
        -> SweptObjects
    {
        var swept = SweptObjects()
        let included = TweetFlags.includedOnly.rawValue
        let select = try connection.prepare("SELECT \(TweetRecord.columns) FROM tweets t WHERE t.id = ?")
        // In ascending id order, a bounded number at a time: the index deletes want that order, and each holds a
        // tweet's document until applied.
        for start in stride(from: 0, to: own.count, by: 10_000) {
            var index = IndexChanges()
            for rowid in own[start..<min(start + 10_000, own.count)] {
                select.bind(rowid, at: 1)
                defer { select.reset() }
                guard try select.step() else { continue }
                if !TweetFlags(rawValue: select.int64(6)).contains(.includedOnly) {
                    index.delete(rowid, TweetDocument(try TweetRecord.tweet(from: select)))
                }
            }
            try index.apply(connection)
            for rowid in own[start..<min(start + 10_000, own.count)] {
                if sweep.tweets.contains(TweetID(UInt64(bitPattern: rowid))) {
                    try connection.withStatement("DELETE FROM tweets WHERE id = ?", [.integer(rowid)]) { try $0.run() }
                    swept.deleted += connection.changes
                } else {
                    // Out of searches and `top`, as any tweet kept only for another's `includes`.
                    try connection.withStatement(
                        "UPDATE tweets SET flags = flags | \(included) WHERE id = ?", [.integer(rowid)]
                    ) { try $0.run() }
                    swept.demoted += connection.changes
                    try connection.withStatement("DELETE FROM tweet_keys WHERE tweet = ?", [.integer(rowid)]) {
                        try $0.run()
                    }
                }
            }
        }
        let ownSet = Set(own.map { TweetID(UInt64(bitPattern: $0)) })
        for id in sweep.tweets.subtracting(ownSet).sorted() {
            try connection.withStatement(
                "DELETE FROM tweets WHERE id = ? AND (flags & \(included)) != 0",
                [.integer(Int64(bitPattern: id.rawValue))]
            ) { try $0.run() }
            swept.includedTweets += connection.changes
        }
        for user in sweep.users.sorted() {
            let id = Int64(bitPattern: user.rawValue)
            try connection.withStatement("DELETE FROM users WHERE id = ?", [.integer(id)]) { try $0.run() }
            swept.users += connection.changes
            try connection.withStatement("DELETE FROM reply_handles WHERE id = ?", [.integer(id)]) { try $0.run() }
            try deleteOriginal(.user, String(user.rawValue), connection)
        }
        for key in sweep.media.sorted() {
            try connection.withStatement("DELETE FROM media WHERE media_key = ?", [.text(key)]) { try $0.run() }
            swept.media += connection.changes
            try deleteOriginal(.media, key, connection)
        }
        for place in sweep.places.sorted() { try deleteOriginal(.place, place, connection) }
        for poll in sweep.polls.sorted() { try deleteOriginal(.poll, poll, connection) }
        for block in sweep.twarcBlocks.sorted() {
            try connection.withStatement("DELETE FROM twarc_blocks WHERE id = ?", [.integer(block)]) { try $0.run() }
        }
        return swept
    }

    private static func deleteOriginal(_ kind: Schema.OriginalKind, _ key: String, _ connection: Connection) throws {
        try connection.withStatement(
            "DELETE FROM originals WHERE kind = ? AND key = ?", [.integer(kind.rawValue), .text(key)]
        ) { try $0.run() }
    }
}
