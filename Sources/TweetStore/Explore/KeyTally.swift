import Foundation
import TweetKit

/// Counts keys given as UTF-8 bytes straight from SQLite's buffers, without a `String` per occurrence: each distinct
/// key is copied once into an arena and counted in an integer array, found through an open-addressing table.
///
/// `ranked(limit:)` gives what `TopCounter` would for the same occurrences: keys equal as Swift strings (canonically
/// equivalent spellings) are one key, shown as first seen, and ties are ordered by `String` comparison.
struct KeyTally {
    private var arena: [UInt8] = []
    /// Per distinct byte string, in the order first seen: where it starts in the arena, its length, its count.
    private var starts: [Int] = []
    private var lengths: [Int] = []
    private var counts: [Int] = []
    private var hashes: [UInt64] = []
    /// Entry index + 1 per slot, 0 for empty; the size is a power of two kept at least twice the entries.
    private var slots = [Int32](repeating: 0, count: 256)

    /// Distinct byte strings counted.
    var distinct: Int { counts.count }

    /// Counts every key of a list in `ExploreKeys` form (varint length, then the bytes); stops at damage.
    mutating func add(encodedList list: UnsafeRawBufferPointer) {
        var index = 0
        while index < list.count {
            var length = 0
            var shift = 0
            while index < list.count, shift < 63 {
                let byte = list[index]
                index += 1
                length |= Int(byte & 0x7F) << shift
                if byte < 0x80 { break }
                shift += 7
            }
            guard length <= list.count - index else { return }
            add(UnsafeRawBufferPointer(rebasing: list[index..<index + length]))
            index += length
        }
    }

    /// Counts one occurrence of `key`.
    mutating func add(_ key: UnsafeRawBufferPointer, count: Int = 1) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask
        while slots[slot] != 0 {
            let entry = Int(slots[slot]) - 1
            if hashes[entry] == hash, lengths[entry] == key.count, matches(entry, key) {
                counts[entry] += count
                return
            }
            slot = (slot + 1) & mask
        }
        slots[slot] = Int32(counts.count + 1)
        starts.append(arena.count)
        lengths.append(key.count)
        counts.append(count)
        hashes.append(hash)
        arena.append(contentsOf: key)
        if counts.count * 2 > slots.count { grow() }
    }

    private func matches(_ entry: Int, _ key: UnsafeRawBufferPointer) -> Bool {
        let start = starts[entry]
        return arena.withUnsafeBytes { stored in
            key.count == 0 || memcmp(stored.baseAddress! + start, key.baseAddress!, key.count) == 0
        }
    }

    private mutating func grow() {
        var larger = [Int32](repeating: 0, count: slots.count * 2)
        let mask = larger.count - 1
        for (entry, hash) in hashes.enumerated() {
            var slot = Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask
            while larger[slot] != 0 { slot = (slot + 1) & mask }
            larger[slot] = Int32(entry + 1)
        }
        slots = larger
    }

    private func string(_ entry: Int) -> String {
        String(decoding: arena[starts[entry]..<starts[entry] + lengths[entry]], as: UTF8.self)
    }

    private func isASCII(_ entry: Int) -> Bool {
        arena[starts[entry]..<starts[entry] + lengths[entry]].allSatisfy { $0 < 0x80 }
    }

    /// Each distinct byte string as a `String`, with its count, in the order first seen (for small sets such as
    /// languages, which the caller folds further).
    var entries: [(key: String, count: Int)] { counts.indices.map { (string($0), counts[$0]) } }

    /// The `limit` most frequent keys, most first, ties by key, as `TopCounter.ranked` orders them.
    func ranked(limit: Int) -> [TopRow] {
        guard limit > 0, !counts.isEmpty else { return [] }
        // Byte strings that are one Swift string must be merged first. ASCII ones are equal only when their bytes
        // are, so only the others are made into strings here; one whose canonical form is ASCII (a Kelvin sign)
        // joins that ASCII entry. The merged entry keeps the first-seen spelling, as a dictionary keeps its key.
        var merged = counts
        var others: [String: Int] = [:]
        for entry in counts.indices where !isASCII(entry) {
            let key = string(entry)
            let canonical = key.precomposedStringWithCanonicalMapping
            var target = others[key]
            if target == nil, canonical.utf8.allSatisfy({ $0 < 0x80 }), let ascii = entryIndex(canonical) {
                target = ascii
            }
            if let target {
                let (first, second) = target < entry ? (target, entry) : (entry, target)
                merged[first] += merged[second]
                merged[second] = 0
                others[key] = first
            } else {
                others[key] = entry
            }
        }
        // Only keys that can make the list become strings: those counted at least as often as the limit-th.
        let sortedCounts = merged.filter { $0 > 0 }.sorted(by: >)
        guard !sortedCounts.isEmpty else { return [] }
        let threshold = sortedCounts[min(limit, sortedCounts.count) - 1]
        return merged.indices.filter { merged[$0] >= threshold && merged[$0] > 0 }
            .map { TopRow(key: string($0), count: merged[$0]) }
            .sorted { $0.count != $1.count ? $0.count > $1.count : $0.key < $1.key }
            .prefix(limit).map { $0 }
    }

    /// The entry of an ASCII key, if counted.
    private func entryIndex(_ key: String) -> Int? {
        var key = key
        return key.withUTF8 { utf8 -> Int? in
            let raw = UnsafeRawBufferPointer(utf8)
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in raw { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            let mask = slots.count - 1
            var slot = Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask
            while slots[slot] != 0 {
                let entry = Int(slots[slot]) - 1
                if hashes[entry] == hash, lengths[entry] == raw.count, raw.count == 0 || matches(entry, raw) {
                    return entry
                }
                slot = (slot + 1) & mask
            }
            return nil
        }
    }
}
