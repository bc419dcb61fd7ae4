import CSQLite
import Foundation
import TweetKit

/// The hashtags, mentions and domains of one search result, as `top` and `stats` rank them, in the compact form
/// `tweet_keys` keeps (schema version 7).
///
/// Ranking them from the rows meant reading every match's row and decoding its entities into a `Tweet`: 522 ms of CPU
/// for `top hashtags` over 217,828 matches. Here each list is the tweet's distinct keys as `TopCounter.keys` gives
/// them (case folded; domains of the expanded URLs), so a ranking reads a small table and counts bytes.
///
/// Each list is a run of UTF-8 keys, each preceded by its length as a LEB128 varint; an empty list is stored as NULL.
struct ExploreKeys: Equatable, Sendable {
    var hashtags: [UInt8] = []
    var mentions: [UInt8] = []
    var domains: [UInt8] = []

    /// The kinds kept, in column order.
    static let kinds: [TopKind] = [.hashtags, .mentions, .domains]

    /// The keys of `tweet`; empty lists when its entities are.
    init(_ tweet: Tweet) {
        let entities = tweet.entities
        if !entities.hashtags.isEmpty { hashtags = Self.encode(TopCounter.keys(.hashtags, of: tweet, author: nil)) }
        if !entities.mentions.isEmpty { mentions = Self.encode(TopCounter.keys(.mentions, of: tweet, author: nil)) }
        if !entities.urls.isEmpty { domains = Self.encode(TopCounter.keys(.domains, of: tweet, author: nil)) }
    }

    /// True when the tweet has no key of any kind (it then has no `tweet_keys` row).
    var isEmpty: Bool { hashtags.isEmpty && mentions.isEmpty && domains.isEmpty }

    /// The column of `tweet_keys` holding `kind`; nil for the kinds not kept there.
    static func column(_ kind: TopKind) -> String? {
        switch kind {
        case .hashtags: return "hashtags"
        case .mentions: return "mentions"
        case .domains: return "domains"
        case .authors, .langs, .words: return nil
        }
    }

    /// Each key once, in the order it first comes, as `TopCounter` counts a tweet once per key (by `String`
    /// equality, so two spellings of one canonically equivalent key are one key).
    ///
    /// A tweet has a handful of keys, so a short list is searched for repeats in place; a set per list cost an
    /// import an allocation and a hash per key.
    static func encode(_ keys: [String]) -> [UInt8] {
        var writer = ByteWriter()
        if keys.count <= 8 {
            for (index, key) in keys.enumerated() where !keys[..<index].contains(key) { writer.string(key) }
            return writer.bytes
        }
        var seen = Set<String>()
        for key in keys where seen.insert(key).inserted { writer.string(key) }
        return writer.bytes
    }

    /// The keys of an encoded list, for tests and checks; the rankings walk the bytes instead (`KeyTally`).
    static func decode(_ bytes: [UInt8]) throws -> [String] {
        var reader = ByteReader(bytes)
        var keys: [String] = []
        while !reader.isAtEnd { keys.append(try reader.string()) }
        return keys
    }
}

extension Statement {
    /// Binds the three lists from parameter `first` on, an empty one as NULL.
    /// One call per list: an array of the three, made for every row, was the writer thread's to allocate and free.
    func bind(_ keys: ExploreKeys, from first: Int32) {
        bindList(keys.hashtags, at: first)
        bindList(keys.mentions, at: first + 1)
        bindList(keys.domains, at: first + 2)
    }

    private func bindList(_ list: [UInt8], at index: Int32) {
        if list.isEmpty { bind(nil as Int64?, at: index) } else { bind(.blob(list), at: index) }
    }
}

/// Keeps `tweet_keys` in step with the rows the writer stores: a search result with keys has its row, any other tweet
/// has none. Runs inside the writer's transaction.
struct ExploreKeysWriter {
    private let upsert: Statement
    private let remove: Statement

    init(connection: Connection) throws {
        upsert = try connection.prepare(
            "INSERT OR REPLACE INTO tweet_keys(tweet, hashtags, mentions, domains) VALUES (?,?,?,?)")
        remove = try connection.prepare("DELETE FROM tweet_keys WHERE tweet = ?")
    }

    /// Writes the row of a tweet stored for the first time: nothing when it has no keys (or is not a result).
    func insert(_ rowid: Int64, _ keys: ExploreKeys?) throws {
        guard let keys, !keys.isEmpty else { return }
        try write(rowid, keys)
    }

    /// Replaces the row of a tweet stored again, or removes it when the new copy has no keys.
    func replace(_ rowid: Int64, _ keys: ExploreKeys?) throws {
        if let keys, !keys.isEmpty {
            try write(rowid, keys)
        } else {
            defer { remove.reset() }
            remove.bind(rowid, at: 1)
            while try remove.step() {}
        }
    }

    private func write(_ rowid: Int64, _ keys: ExploreKeys) throws {
        defer { upsert.reset() }
        upsert.bind(rowid, at: 1)
        upsert.bind(keys, from: 2)
        while try upsert.step() {}
    }
}

extension Statement {
    /// Hands `body` a column's bytes where SQLite keeps them (valid until the next step), without copying; empty for
    /// NULL.
    func withBytes<T>(_ column: Int32, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        guard let start = sqlite3_column_blob(handle, column) else {
            return try body(UnsafeRawBufferPointer(start: nil, count: 0))
        }
        return try body(UnsafeRawBufferPointer(start: start, count: Int(sqlite3_column_bytes(handle, column))))
    }
}
