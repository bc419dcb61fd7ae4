import Synchronization

/// The result tweets an import is known to store, so that decoding can leave out included copies of them, which
/// the store would not keep.
///
/// A page's `includes.tweets` holds the tweets its results refer to (the one replied to, quoted or retweeted), and in
/// a collection these are often results themselves. A result always beats an included copy of the same tweet: a
/// batch keeps the result whatever the order (`PreparedBatch.order`), and a writer that finds a result stored returns
/// before touching the row (SQLite) or leaves it (the PostgreSQL upsert). Such a copy is work with no effect: its
/// model and original are built, the original compressed, and the row looked up only to be left. With a set bound to
/// `current`, `FastPageDecoder` reads the leading `id` of each included tweet and steps over the whole object when
/// the set holds it.
///
/// A set has two layers. The import's own (`init()`) holds the results of the batches handed to the writer; a store
/// writes an import's batches in order and stops at the first that fails, so those were written, or are in a batch
/// written before the one being decoded. Each decoding task binds a layer over it (`init(over:)`) and adds the results
/// of every page it decodes, which belong to its own batch. The one difference left is a tweet deleted meanwhile by
/// another process (a `drop` in another shell): the included copy would have stored it again, for lookups only.
package final class KnownResults: Sendable {
    /// The set bound while an import decodes a batch; nil everywhere else, where nothing is left out.
    @TaskLocal package static var current: KnownResults?

    /// Past this many ids a layer starts again empty: the table is at most half full, so 32 MB at the limit, and the
    /// copies worth leaving out mostly name recent tweets.
    package static let limit = 2_000_000

    private let below: KnownResults?
    private let ids = Mutex(IDTable())

    /// An import's own layer, empty.
    package init() { below = nil }

    /// A decoding task's layer over the import's; what it adds stays in this layer.
    package init(over below: KnownResults) { self.below = below }

    /// Whether the tweet is a known result, in this layer or the one below.
    package func contains(_ id: UInt64) -> Bool {
        ids.withLock { $0.contains(id) } || below?.contains(id) == true
    }

    /// Remembers results of this layer.
    package func insert(contentsOf results: [UInt64]) {
        ids.withLock { table in
            for id in results {
                if table.count >= Self.limit { table = IDTable() }
                table.insert(id)
            }
        }
    }

    /// How many ids this layer holds.
    package var count: Int { ids.withLock { $0.count } }
}

/// A set of ids by open addressing: ids are random-looking snowflakes, so a multiplicative hash and linear probing
/// touch one cache line per lookup. A first version on `Set` (seeded hashing, rehashes as it grew) took 1.5% of a 1M
/// import's samples to insert the ids, the loop around it included. Zero marks an empty slot; the id 0 itself is
/// kept aside.
struct IDTable: Sendable {
    private var slots = [UInt64](repeating: 0, count: 1024)
    private var hasZero = false
    private(set) var count = 0

    func contains(_ id: UInt64) -> Bool {
        if id == 0 { return hasZero }
        let mask = slots.count - 1
        var index = Self.start(id, mask)
        while true {
            let slot = slots[index]
            if slot == id { return true }
            if slot == 0 { return false }
            index = (index + 1) & mask
        }
    }

    mutating func insert(_ id: UInt64) {
        if id == 0 {
            if !hasZero { count += 1 }
            hasZero = true
            return
        }
        // At most half full, so probes stay short.
        if (count + 1) * 2 > slots.count { grow() }
        if place(id) { count += 1 }
    }

    /// Puts a nonzero id in its slot; false when it was there already.
    private mutating func place(_ id: UInt64) -> Bool {
        let mask = slots.count - 1
        var index = Self.start(id, mask)
        while true {
            let slot = slots[index]
            if slot == id { return false }
            if slot == 0 {
                slots[index] = id
                return true
            }
            index = (index + 1) & mask
        }
    }

    private mutating func grow() {
        let old = slots
        slots = [UInt64](repeating: 0, count: old.count * 2)
        for id in old where id != 0 { _ = place(id) }
    }

    /// The first slot to try: Fibonacci hashing, whose high bits mix every bit of the id.
    private static func start(_ id: UInt64, _ mask: Int) -> Int {
        Int(truncatingIfNeeded: (id &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }
}
