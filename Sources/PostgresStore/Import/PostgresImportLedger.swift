import Foundation

/// What one import has handed to the store so far, so later batches skip work the store already has: users written
/// unchanged, and whether a tweet can be new to the store.
///
/// - **Users.** Authors come again in nearly every batch, unchanged; rewriting them was 415k updates of 25k rows at
///   1M tweets, and compressing their originals each time cost the client zstd time. A user whose fingerprint
///   (original, or fields) was written earlier by this import is left out of the batch. Should another importer
///   write a different copy in between, that copy stays: of two imports at once either may be last.
/// - **Tweets.** A filter of the ids this import has written (a Bloom filter: it may say "seen" wrongly, never
///   "unseen") lets the batch send tweets it has not seen straight into `tweets` by COPY, without the staging
///   table and the upsert. The writer still guards that under a savepoint: a row that exists after all (written by
///   another importer, or stored before) fails the COPY, and the batch goes the staged way
///   (`PostgresWriter.write`). So the filter decides only speed, never what is stored.
///
/// Batches are built in file order on one queue and written in the same order, and an import that fails stops, so
/// what the ledger holds was written, or is in the batch being written.
final class PostgresImportLedger: @unchecked Sendable {
    /// Unchecked: every property is read and written under `lock`.
    private let lock = NSLock()
    private var users: [UInt64: Int] = [:]
    private var filters: [IDFilter] = [IDFilter(capacity: 1 << 20)]
    private var sending = true
    private var fallbacks = 0
    private let keepsTrying: Bool

    /// The bound on remembered users (the SQLite store's), and on ids: past it, every tweet takes the staged way.
    static let userLimit = 500_000
    static let idLimit = 64 << 20

    /// A ledger for one import. With `keepsTrying` (a load into a store that was empty when it began), a batch that
    /// had to fall back does not stop later ones from sending new tweets directly; otherwise the first fallback does,
    /// since a store that held some of a file's tweets likely holds more.
    init(keepsTrying: Bool) {
        self.keepsTrying = keepsTrying
    }

    /// Whether the user must be written: true (and remembered) unless this import wrote the same fingerprint.
    func mustWrite(user id: UInt64, fingerprint: Int) -> Bool {
        lock.withLock {
            if users[id] == fingerprint { return false }
            if users.count >= Self.userLimit { users.removeAll(keepingCapacity: true) }
            users[id] = fingerprint
            return true
        }
    }

    /// Whether the tweet is surely unseen by this import (and, as far as this import knows, new to the store);
    /// remembers it either way.
    func isUnseen(tweet id: UInt64) -> Bool {
        lock.withLock {
            guard sending else { return false }
            if filters.contains(where: { $0.contains(id) }) { return false }
            if filters[filters.count - 1].isFull {
                let total = filters.reduce(0) { $0 + $1.capacity }
                guard total < Self.idLimit else {
                    sending = false
                    return false
                }
                filters.append(IDFilter(capacity: filters[filters.count - 1].capacity * 2))
            }
            filters[filters.count - 1].insert(id)
            return true
        }
    }

    /// Whether the writer should try sending unseen tweets directly.
    var sendsUnseen: Bool { lock.withLock { sending } }

    /// Called when a batch's unseen tweets turned out to exist: stops sending them directly, unless `keepsTrying`
    /// and this was one of the first few.
    func fellBack() {
        lock.withLock {
            fallbacks += 1
            if !keepsTrying || fallbacks >= 3 { sending = false }
        }
    }
}

/// A Bloom filter of tweet ids: ten bits and seven probes per id, about 1% false "seen" when full.
private struct IDFilter {
    let capacity: Int
    private var bits: [UInt64]
    private var count = 0
    private let mask: UInt64

    init(capacity: Int) {
        self.capacity = capacity
        // A power of two of at least ten bits per id.
        let size = max(64, (capacity * 10).nextPowerOfTwo)
        bits = Array(repeating: 0, count: size / 64)
        mask = UInt64(size - 1)
    }

    var isFull: Bool { count >= capacity }

    func contains(_ id: UInt64) -> Bool {
        let (first, step) = Self.hashes(id)
        for probe in 0..<7 {
            let bit = (first &+ UInt64(probe) &* step) & mask
            if bits[Int(bit >> 6)] & (1 << (bit & 63)) == 0 { return false }
        }
        return true
    }

    mutating func insert(_ id: UInt64) {
        let (first, step) = Self.hashes(id)
        for probe in 0..<7 {
            let bit = (first &+ UInt64(probe) &* step) & mask
            bits[Int(bit >> 6)] |= 1 << (bit & 63)
        }
        count += 1
    }

    /// Two independent hashes of the id (splitmix64's finalizer with two seeds); the step is odd, so the probes
    /// differ.
    private static func hashes(_ id: UInt64) -> (UInt64, UInt64) {
        func mix(_ value: UInt64) -> UInt64 {
            var z = value &+ 0x9E37_79B9_7F4A_7C15
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        return (mix(id), mix(id ^ 0xD6E8_FEB8_6659_FD93) | 1)
    }
}

extension Int {
    /// The smallest power of two at least this (1 for zero or less).
    fileprivate var nextPowerOfTwo: Int {
        guard self > 1 else { return 1 }
        return 1 << (Int.bitWidth - (self - 1).leadingZeroBitCount)
    }
}
