import Foundation
import TweetKit
import TweetStore

/// Carries out a drop on a PostgreSQL store, inside its transaction, as `OrphanSweep` decides: the SQLite store's
/// rules, with rows read a batch at a time by `= ANY($1)` and the pass over the remaining tweets through a cursor.
struct PostgresOrphanSweep {
    let connection: PGConnection
    let codec: OriginalsCodec

    /// What the drop did.
    struct Outcome {
        var deleted = 0
        var demoted = 0
        var includedTweets = 0
        var users = 0
        var media = 0
    }

    /// Ids go to the server this many at a time.
    private static let batch = 5_000
    private static let includedOnly = TweetFlags.includedOnly.rawValue
    private static let namesColumns = "t.id, t.author_id, t.reply_to_user, t.extra, t.flags, o.original, o.twarc"
    private static let namesTables = "tweets t LEFT JOIN tweet_originals o ON o.id = t.id"

    /// Removes `own` (the dropped collection's tweets that no other collection holds, their memberships gone) and
    /// what only they name.
    func drop(_ own: [TweetID]) throws -> Outcome {
        var sweep = OrphanSweep()
        try forEachNames(own, includedOnly: false) { sweep.dropped($0) }
        while case let unread = sweep.unreadCandidates, !unread.isEmpty {
            var found = Set<TweetID>()
            try forEachNames(unread.sorted(), includedOnly: true) { names in
                found.insert(names.tweet.id)
                sweep.candidate(names)
            }
            sweep.notIncluded(unread.subtracting(found))
        }
        try pass(&sweep)
        try sweep.settle { ids in
            var names: [NamedObjects] = []
            try forEachNames(ids, includedOnly: false) { names.append($0) }
            return names
        }
        return try carryOut(sweep, own)
    }

    /// The names of the stored tweets among `ids` (with `includedOnly`, only of those stored as included-only).
    private func forEachNames(_ ids: [TweetID], includedOnly: Bool, _ body: (NamedObjects) throws -> Void) throws {
        let filter = includedOnly ? " AND (t.flags & \(Self.includedOnly)) <> 0" : ""
        for start in stride(from: 0, to: ids.count, by: Self.batch) {
            let chunk = Array(ids[start..<min(start + Self.batch, ids.count)])
            _ = try connection.rows(
                "SELECT \(Self.namesColumns) FROM \(Self.namesTables) WHERE t.id = ANY($1::bigint[])\(filter)",
                [.text(PostgresReader.array(chunk))], doing: "dropping a collection"
            ) { row in try body(try names(row, objects: true)) }
        }
    }

    /// One pass over every tweet the sweep has not in question, through a cursor, until nothing is left in question.
    private func pass(_ sweep: inout OrphanSweep) throws {
        guard !sweep.isSettled else { return }
        // Originals cross the network only while a place or poll is in question.
        let columns =
            sweep.needsOriginals
            ? Self.namesColumns
            : Self.namesColumns.replacingOccurrences(
                of: "o.original", with: "NULL::bytea")
        try connection.execute(
            "DECLARE tweetsh_sweep NO SCROLL CURSOR FOR SELECT \(columns) FROM \(Self.namesTables)",
            doing: "dropping a collection")
        var read = 1
        while read > 0, !sweep.isSettled {
            read = 0
            _ = try connection.rows("FETCH FORWARD 10000 FROM tweetsh_sweep", doing: "dropping a collection") { row in
                read += 1
                guard !sweep.isCandidate(TweetID(UInt64(bitPattern: row.int64(0)))) else { return }
                let includedOnly = TweetFlags(rawValue: row.int64(4)).contains(.includedOnly)
                sweep.remaining(try names(row, objects: sweep.needsOriginals), includedOnly: includedOnly)
            }
        }
        try connection.execute("CLOSE tweetsh_sweep", doing: "dropping a collection")
    }

    /// A row's names; `objects` expands the original for its place and polls (a damaged one names nothing).
    private func names(_ row: PGRow, objects: Bool) throws -> NamedObjects {
        var tweet = Tweet(id: TweetID(UInt64(bitPattern: row.int64(0))), text: "")
        tweet.authorID = row.optionalInt64(1).map { UserID(UInt64(bitPattern: $0)) }
        tweet.inReplyToUserID = row.optionalInt64(2).map { UserID(UInt64(bitPattern: $0)) }
        if !row.isNull(3) { try TweetRecord.decodeExtra(row.bytes(3), into: &tweet, relationsOnly: true) }
        var names = NamedObjects(tweet, twarc: row.optionalInt64(6))
        if objects, !row.isNull(5), let bytes = try? codec.decompress(row.bytes(5), loadDictionary: dictionary) {
            (names.place, names.polls) = OriginalJSON(bytes: bytes).placeAndPolls
        }
        return names
    }

    private func dictionary(_ id: UInt32) throws -> [UInt8]? {
        try connection.rows(
            "SELECT body FROM zstd_dictionaries WHERE id = $1", [.integer(Int64(id))], doing: "dropping a collection"
        ) { $0.bytes(0) }.first
    }

    private func carryOut(_ sweep: OrphanSweep, _ own: [TweetID]) throws -> Outcome {
        var outcome = Outcome()
        let going = own.filter { sweep.tweets.contains($0) }
        let staying = own.filter { !sweep.tweets.contains($0) }
        let included = sweep.tweets.subtracting(own).sorted()
        try chunks(going) { array in
            try execute("DELETE FROM tweet_originals WHERE id = ANY($1::bigint[])", array)
            outcome.deleted += try execute("DELETE FROM tweets WHERE id = ANY($1::bigint[])", array)
        }
        // Out of searches, as any tweet kept only for another's `includes`, which has no document.
        try chunks(staying) { array in
            outcome.demoted += try execute(
                "UPDATE tweets SET flags = flags | \(Self.includedOnly), doc = ''::tsvector "
                    + "WHERE id = ANY($1::bigint[])", array)
        }
        try chunks(included) { array in
            let condition = "id = ANY($1::bigint[]) AND (flags & \(Self.includedOnly)) <> 0"
            try execute("DELETE FROM tweet_originals WHERE id IN (SELECT id FROM tweets WHERE \(condition))", array)
            outcome.includedTweets += try execute("DELETE FROM tweets WHERE \(condition)", array)
        }
        let users = sweep.users.map { "\(Int64(bitPattern: $0.rawValue))" }.sorted()
        for start in stride(from: 0, to: users.count, by: Self.batch) {
            let array = "{" + users[start..<min(start + Self.batch, users.count)].joined(separator: ",") + "}"
            outcome.users += try execute("DELETE FROM users WHERE id = ANY($1::bigint[])", array)
            try execute("DELETE FROM reply_handles WHERE id = ANY($1::bigint[])", array)
        }
        let media = sweep.media.sorted()
        for start in stride(from: 0, to: media.count, by: Self.batch) {
            let array = PostgresReader.textArray(Array(media[start..<min(start + Self.batch, media.count)]))
            outcome.media += try execute("DELETE FROM media WHERE media_key = ANY($1::text[])", array)
        }
        for (kind, keys) in [(PostgresSchema.ObjectKind.place, sweep.places), (.poll, sweep.polls)] where !keys.isEmpty
        {
            try connection.execute(
                "DELETE FROM object_originals WHERE kind = $1 AND key = ANY($2::text[])",
                [.integer(kind.rawValue), .text(PostgresReader.textArray(keys.sorted()))],
                doing: "dropping a collection")
        }
        if !sweep.twarcBlocks.isEmpty {
            let blocks = "{" + sweep.twarcBlocks.sorted().map(String.init).joined(separator: ",") + "}"
            try execute("DELETE FROM twarc_blocks WHERE id = ANY($1::bigint[])", blocks)
        }
        return outcome
    }

    private func chunks(_ ids: [TweetID], _ body: (String) throws -> Void) throws {
        for start in stride(from: 0, to: ids.count, by: Self.batch) {
            try body(PostgresReader.array(Array(ids[start..<min(start + Self.batch, ids.count)])))
        }
    }

    @discardableResult
    private func execute(_ sql: String, _ array: String) throws -> Int {
        try connection.execute(sql, [.text(array)], doing: "dropping a collection")
    }
}
