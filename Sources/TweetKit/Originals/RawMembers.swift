import Foundation

/// The members of a JSON object as ranges of its bytes, found by the scanner without building values, so they can
/// be copied out exactly as they are.
struct RawMembers {
    /// One member: where its key's text (between the quotes) and its value lie.
    struct Member {
        let key: Range<Int>
        let value: Range<Int>
    }

    private let bytes: [UInt8]
    let members: [Member]

    /// The members of `bytes`, or nil when they are not one JSON object.
    init?(_ bytes: [UInt8]) {
        guard let found = bytes.withUnsafeBufferPointer({ Self.scan($0) }) else { return nil }
        self.bytes = bytes
        members = found
    }

    private static func scan(_ buffer: UnsafeBufferPointer<UInt8>) -> [Member]? {
        var scanner = JSONParser.Scanner(bytes: buffer)
        var found: [Member] = []
        do {
            scanner.skipWhitespace()
            guard scanner.peek() == UInt8(ascii: "{") else { return nil }
            scanner.index += 1
            scanner.skipWhitespace()
            if scanner.peek() == UInt8(ascii: "}") { return found }
            while true {
                scanner.skipWhitespace()
                guard scanner.peek() == UInt8(ascii: "\"") else { return nil }
                let keyStart = scanner.index + 1
                _ = try scanner.string()
                let key = keyStart..<scanner.index - 1
                scanner.skipWhitespace()
                guard scanner.peek() == UInt8(ascii: ":") else { return nil }
                scanner.index += 1
                scanner.skipWhitespace()
                let valueStart = scanner.index
                try scanner.skipValue(depth: 1)
                found.append(Member(key: key, value: valueStart..<scanner.index))
                scanner.skipWhitespace()
                guard let byte = scanner.peek() else { return nil }
                scanner.index += 1
                if byte == UInt8(ascii: ",") { continue }
                return byte == UInt8(ascii: "}") ? found : nil
            }
        } catch {
            return nil
        }
    }

    /// The elements of a JSON array, each as its own bytes; nil when `bytes` hold something else.
    static func elements(_ bytes: [UInt8]) -> [[UInt8]]? {
        bytes.withUnsafeBufferPointer { buffer -> [[UInt8]]? in
            var found: [[UInt8]] = []
            var scanner = JSONParser.Scanner(bytes: buffer)
            do {
                try scanner.elements { scanner in
                    scanner.skipWhitespace()
                    let start = scanner.index
                    try scanner.skipValue(depth: 1)
                    found.append(Array(buffer[start..<scanner.index]))
                }
            } catch {
                return nil
            }
            return found
        }
    }

    /// A member's name as its text between the quotes.
    func key(of member: Member) -> String { String(decoding: bytes[member.key], as: UTF8.self) }

    /// The first member named `name` (matched on its text as written; the names looked up here have no escapes).
    func member(_ name: String) -> Member? { members.first { key(of: $0) == name } }

    /// A member's value, parsed: for the few values the flattening must read (ids, keys, types).
    func parsed(_ name: String) -> JSONValue? {
        guard let member = member(name) else { return nil }
        return bytes.withUnsafeBufferPointer { try? JSONParser.parse(UnsafeBufferPointer(rebasing: $0[member.value])) }
    }

    /// A member's value as its bytes.
    func value(of member: Member) -> [UInt8] { Array(bytes[member.value]) }

    /// Appends a member's value as it came.
    func writeValue(of member: Member, into writer: inout JSONWriter) {
        bytes.withUnsafeBufferPointer { writer.append(UnsafeBufferPointer(rebasing: $0[member.value])) }
    }

    /// Writes `"name":` with the name's text as it came.
    func writeKey(of member: Member, into writer: inout JSONWriter) {
        writer.raw("\"")
        bytes.withUnsafeBufferPointer { writer.append(UnsafeBufferPointer(rebasing: $0[member.key])) }
        writer.raw("\":")
    }

    /// Writes the object with `members` (all of its own by default), each as it came, then `added` after them.
    func write(
        _ members: [Member]? = nil, appending added: [(StaticString, (inout JSONWriter) -> Void)] = [],
        into writer: inout JSONWriter
    ) {
        let members = members ?? self.members
        writer.raw("{")
        for (index, member) in members.enumerated() {
            if index > 0 { writer.raw(",") }
            writeKey(of: member, into: &writer)
            writeValue(of: member, into: &writer)
        }
        for (index, (name, body)) in added.enumerated() {
            if index > 0 || !members.isEmpty { writer.raw(",") }
            writer.key(name)
            body(&writer)
        }
        writer.raw("}")
    }
}

extension JSONWriter {
    /// Appends bytes that are already valid JSON text.
    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }
}
