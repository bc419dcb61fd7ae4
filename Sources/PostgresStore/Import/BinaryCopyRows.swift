/// Rows in COPY's binary format (`COPY … FROM STDIN (FORMAT binary)`): a signature, then per row a field count and
/// each field as a 32-bit length (-1 for NULL) and its bytes, all integers big-endian, then a trailer.
///
/// The tweets' rows go this way because the text format cost both sides most of an import's CPU: the client wrote
/// each original as hex and every document as a `tsvector` literal, and the server parsed both back. Here an original
/// is its bytes and a document is `tsvector`'s own binary form (`tsvectorrecv`: lexeme count, then each lexeme as a
/// NUL-terminated string with its 16-bit positions).
struct BinaryCopyRows {
    private(set) var bytes: [UInt8]
    private var fieldCountAt = 0
    private var fields: UInt16 = 0

    /// An empty stream with the format's signature, flags and header extension length.
    init(capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(capacity)
        bytes += Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0x00]
        append32(0)
        append32(0)
    }

    /// Starts a row; its field count is filled in by `endRow`.
    mutating func startRow() {
        fieldCountAt = bytes.count
        bytes += [0, 0]
        fields = 0
    }

    /// Ends the row.
    mutating func endRow() {
        bytes[fieldCountAt] = UInt8(fields >> 8)
        bytes[fieldCountAt + 1] = UInt8(fields & 0xFF)
    }

    /// The stream with its trailer, to send.
    var finished: [UInt8] { bytes + [0xFF, 0xFF] }

    /// A `bigint` field.
    mutating func integer(_ value: Int64?) {
        fields += 1
        guard let value else { return append32(-1) }
        append32(8)
        let bits = UInt64(bitPattern: value)
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: bits >> shift)) }
    }

    /// A `text` field; a NUL (which PostgreSQL text cannot hold) is dropped, as the text format's writer does.
    mutating func text(_ value: String?) {
        fields += 1
        guard let value else { return append32(-1) }
        if value.utf8.contains(0) {
            let kept = value.utf8.filter { $0 != 0 }
            append32(Int32(kept.count))
            bytes += kept
        } else {
            append32(Int32(value.utf8.count))
            bytes += value.utf8
        }
    }

    /// A `bytea` field; empty or nil is NULL.
    mutating func blob(_ value: [UInt8]?) {
        fields += 1
        guard let value, !value.isEmpty else { return append32(-1) }
        append32(Int32(value.count))
        bytes += value
    }

    /// A `tsvector` field (`tsvectorrecv`'s form: the lexeme count, then each lexeme) of `count` lexemes, which
    /// `write` appends: each as its NUL-terminated bytes, a 16-bit position count and the positions.
    mutating func tsvector(count: Int, _ write: (inout [UInt8]) -> Void) {
        fields += 1
        let lengthAt = bytes.count
        append32(0)
        append32(Int32(count))
        write(&bytes)
        let length = UInt32(bytes.count - lengthAt - 4)
        for (offset, shift) in [24, 16, 8, 0].enumerated() {
            bytes[lengthAt + offset] = UInt8(truncatingIfNeeded: length >> UInt32(shift))
        }
    }

    private mutating func append32(_ value: Int32) {
        let bits = UInt32(bitPattern: value)
        bytes.append(UInt8(truncatingIfNeeded: bits >> 24))
        bytes.append(UInt8(truncatingIfNeeded: bits >> 16))
        bytes.append(UInt8(truncatingIfNeeded: bits >> 8))
        bytes.append(UInt8(truncatingIfNeeded: bits))
    }
}
