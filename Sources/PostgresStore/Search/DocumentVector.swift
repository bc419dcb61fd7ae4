import TweetStore

/// Builds a tweet's index document straight into `tsvector`'s binary form, reusing its buffers from one document to
/// the next: the import's decoding thread spent a third of its time building the same lexemes as Swift strings in a
/// dictionary (docs/benchmarks.md, "Documents built as bytes").
///
/// The lexemes are the ones `SearchDocument` describes: each column's tokens behind its mark, positions counted
/// across the whole document. They are written in `tsvector`'s own order (bytes compared as `memcmp` does, a prefix
/// first), so the server's `tsvectorrecv` finds them sorted and need not sort them again.
struct DocumentVector {
    /// A distinct lexeme: its bytes in `arena`, and its positions as a chain through `positions`.
    private struct Entry {
        /// The lexeme's hash, kept so the table can grow without hashing every lexeme again.
        var hash: UInt64
        var start: Int32
        var length: Int32
        var firstPosition: Int32 = -1
        var lastPosition: Int32 = -1
        var count: Int32 = 0
    }

    private var arena: [UInt8] = []
    private var entries: [Entry] = []
    /// Each position kept, and the index of the same lexeme's next one (-1 at the end of its chain).
    private var positions: [(position: UInt16, next: Int32)] = []
    /// Open addressing over `entries` by lexeme hash; -1 is empty. Its size is a power of two.
    private var slots: [Int32] = Array(repeating: -1, count: 64)
    private var token: [UInt8] = []
    private var order: [Int32] = []
    private var position = 0

    /// An empty builder; one per thread, reused for every document.
    init() {}

    /// Writes the document of `tweet`, with the position-less `extra` lexemes (flags, language), as one `tsvector`
    /// field of `rows`.
    mutating func write(_ document: TweetDocument, extra: [String], to rows: inout BinaryCopyRows) {
        reset()
        let columns: [(SearchDocument.Column, String)] = [
            (.body, document.body), (.tags, document.tags), (.cashtags, document.cashtags),
            (.mentions, document.mentions), (.urls, document.urls), (.refs, document.refs),
        ]
        // Taken out for the loop, which adds to `self`; put back after, to keep its capacity.
        var scratch = token
        token = []
        defer { token = scratch }
        for (column, text) in columns where !text.isEmpty {
            let mark = column.rawValue.utf8.first
            IndexTokenizer.forEachToken(in: text, token: &scratch) { token in
                position = min(position + 1, SearchDocument.lastPosition)
                let length = token.count + (mark == nil ? 0 : 1)
                guard length <= SearchDocument.longestLexeme else { return }
                add(mark: mark, token, position: position)
            }
        }
        for lexeme in extra { add(mark: nil, ArraySlice(lexeme.utf8), position: nil) }
        rows.tsvector(count: entries.count) { bytes in writeSorted(to: &bytes) }
    }

    private mutating func reset() {
        arena.removeAll(keepingCapacity: true)
        entries.removeAll(keepingCapacity: true)
        positions.removeAll(keepingCapacity: true)
        position = 0
        for index in slots.indices { slots[index] = -1 }
    }

    /// Adds one occurrence of `mark` + `token`: a new entry, or one more position of the one already there (at most
    /// 256, as PostgreSQL keeps).
    private mutating func add(mark: UInt8?, _ token: ArraySlice<UInt8>, position: Int?) {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        if let mark { hash = (hash ^ UInt64(mark)) &* 0x100_0000_01B3 }
        for byte in token { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        let length = token.count + (mark == nil ? 0 : 1)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] >= 0 {
            let index = Int(slots[slot])
            if matches(entries[index], mark: mark, token, length: length) {
                if let position { addPosition(position, to: index) }
                return
            }
            slot = (slot + 1) & mask
        }
        let start = arena.count
        if let mark { arena.append(mark) }
        arena += token
        entries.append(Entry(hash: hash, start: Int32(start), length: Int32(length)))
        slots[slot] = Int32(entries.count - 1)
        if let position { addPosition(position, to: entries.count - 1) }
        // Half full at most, so probes stay short.
        if entries.count * 2 > slots.count { grow() }
    }

    private func matches(_ entry: Entry, mark: UInt8?, _ token: ArraySlice<UInt8>, length: Int) -> Bool {
        guard Int(entry.length) == length else { return false }
        var at = Int(entry.start)
        if let mark {
            guard arena[at] == mark else { return false }
            at += 1
        }
        for byte in token {
            guard arena[at] == byte else { return false }
            at += 1
        }
        return true
    }

    private mutating func addPosition(_ position: Int, to index: Int) {
        guard entries[index].count < 256 else { return }
        let added = Int32(positions.count)
        positions.append((UInt16(position), -1))
        if entries[index].lastPosition >= 0 {
            positions[Int(entries[index].lastPosition)].next = added
        } else {
            entries[index].firstPosition = added
        }
        entries[index].lastPosition = added
        entries[index].count += 1
    }

    private mutating func grow() {
        slots = Array(repeating: -1, count: slots.count * 2)
        let mask = slots.count - 1
        for (index, entry) in entries.enumerated() {
            var slot = Int(truncatingIfNeeded: entry.hash) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(index)
        }
    }

    /// The entries in `tsvector` order, each as its NUL-terminated bytes, a 16-bit count and its positions; a
    /// position the document repeats (every token past the last position shares it) is written once.
    private mutating func writeSorted(to bytes: inout [UInt8]) {
        order.removeAll(keepingCapacity: true)
        order += (0..<Int32(entries.count))
        arena.withUnsafeBufferPointer { arena in
            let entries = self.entries
            order.sort { left, right in
                let a = entries[Int(left)]
                let b = entries[Int(right)]
                let shorter = Int(min(a.length, b.length))
                for offset in 0..<shorter {
                    let x = arena[Int(a.start) + offset]
                    let y = arena[Int(b.start) + offset]
                    if x != y { return x < y }
                }
                return a.length < b.length
            }
        }
        for index in order {
            let entry = entries[Int(index)]
            bytes += arena[Int(entry.start)..<Int(entry.start + entry.length)]
            bytes.append(0)
            let countAt = bytes.count
            bytes += [0, 0]
            var count: UInt16 = 0
            var last: UInt16 = 0
            var link = entry.firstPosition
            while link >= 0 {
                let (position, next) = positions[Int(link)]
                if position > last {
                    bytes.append(UInt8(position >> 8))
                    bytes.append(UInt8(position & 0xFF))
                    last = position
                    count += 1
                }
                link = next
            }
            bytes[countAt] = UInt8(count >> 8)
            bytes[countAt + 1] = UInt8(count & 0xFF)
        }
    }
}
