import Foundation

/// A strict, allocation-light JSON parser over UTF-8 bytes.
///
/// Written by hand because decoding dominates importing a collection, and Foundation's decoders cost several times
/// more per tweet. It never traps on bad input: every problem becomes a `JSONParseError` with its byte offset.
public enum JSONParser {
    /// Nesting deeper than this is rejected rather than risking the stack on hostile input.
    public static let maximumDepth = 512

    /// Parses one JSON document; whitespace may surround it, nothing else may follow it.
    public static func parse(_ data: Data) throws(JSONParseError) -> JSONValue {
        let result = data.withUnsafeBytes { raw in
            Result { () throws(JSONParseError) -> JSONValue in try parse(raw.bindMemory(to: UInt8.self)) }
        }
        return try result.get()
    }

    /// Parses one JSON document from a byte buffer.
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> JSONValue {
        var scanner = Scanner(bytes: bytes)
        scanner.skipWhitespace()
        let value = try scanner.value(depth: 0)
        scanner.skipWhitespace()
        if scanner.index < bytes.count {
            throw scanner.error("unexpected \(scanner.describeCurrent()) after the end of the JSON value")
        }
        return value
    }

    /// Parses the first JSON value starting at `offset` and returns it with the offset just past it; text may follow.
    /// Archives need this: their files are `window.YTD.tweets.part0 = [...]`, JavaScript around JSON.
    public static func parsePrefix(_ bytes: UnsafeBufferPointer<UInt8>, from offset: Int) throws(JSONParseError) -> (
        JSONValue, Int
    ) {
        var scanner = Scanner(bytes: bytes)
        scanner.index = offset
        scanner.skipWhitespace()
        let value = try scanner.value(depth: 0)
        return (value, scanner.index)
    }

    struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0
        /// Members and elements of the containers being parsed, shared across nesting levels: each container is
        /// copied out once with its exact size, instead of growing its own array by doubling.
        var memberStack: [(key: String, value: JSONValue)] = []
        var elementStack: [JSONValue] = []

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
            // Files saved by some Windows tools start with a UTF-8 byte order mark; it is not part of the JSON.
            if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { index = 3 }
        }

        func error(_ message: String) -> JSONParseError { JSONParseError(offset: index, message: message) }

        func describeCurrent() -> String {
            guard index < bytes.count else { return "end of input" }
            let byte = bytes[index]
            if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
            return "byte 0x\(String(byte, radix: 16))"
        }

        /// How many times `skipWhitespace` has stepped over whitespace. Every way of reading past a value's
        /// whitespace goes through it, so a value read while this stayed unchanged is compact JSON already.
        private(set) var whitespaceRuns = 0

        @inline(__always)
        mutating func skipWhitespace() {
            guard index < bytes.count, Self.isWhitespace(bytes[index]) else { return }
            whitespaceRuns &+= 1
            index += 1
            while index < bytes.count, Self.isWhitespace(bytes[index]) { index += 1 }
        }

        @inline(__always)
        static func isWhitespace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
        }

        /// Where a value starts, to take its text with `original(since:)` once it has been read.
        struct Mark {
            let index: Int
            let whitespaceRuns: Int
        }

        /// The current position.
        var mark: Mark { Mark(index: index, whitespaceRuns: whitespaceRuns) }

        /// The text from `mark` to the current position as compact JSON. When no whitespace was stepped over since
        /// the mark (JSON Lines as twarc and the API write them), the bytes are copied as they are; otherwise the
        /// whitespace between tokens is removed. Imports take one of these for every object they keep.
        func original(since mark: Mark) -> OriginalJSON {
            let slice = UnsafeBufferPointer(rebasing: bytes[mark.index..<index])
            if whitespaceRuns == mark.whitespaceRuns { return OriginalJSON(bytes: Array(slice)) }
            return OriginalJSON(minifying: slice)
        }

        mutating func value(depth: Int) throws(JSONParseError) -> JSONValue {
            guard index < bytes.count else { throw error("expected a value but the input ended") }
            switch bytes[index] {
            case UInt8(ascii: "{"): return try object(depth: depth + 1)
            case UInt8(ascii: "["): return try array(depth: depth + 1)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"):
                try literal("true")
                return .bool(true)
            case UInt8(ascii: "f"):
                try literal("false")
                return .bool(false)
            case UInt8(ascii: "n"):
                try literal("null")
                return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
            default: throw error("expected a value but found \(describeCurrent())")
            }
        }

        mutating func literal(_ word: StaticString) throws(JSONParseError) {
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.count else { throw error("expected '\(word)' but the input ended") }
            let expected = word.utf8Start
            for offset in 0..<count where bytes[index + offset] != expected[offset] {
                throw error("expected '\(word)'")
            }
            index += count
        }

        mutating func object(depth: Int) throws(JSONParseError) -> JSONValue {
            if depth > JSONParser.maximumDepth { throw error("nesting deeper than \(JSONParser.maximumDepth) levels") }
            index += 1
            skipWhitespace()
            if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(JSONObject([]))
            }
            let base = memberStack.count
            defer { memberStack.removeSubrange(base...) }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                    throw error("expected a quoted member name but found \(describeCurrent())")
                }
                let key = try string()
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                    throw error("expected ':' after member name \"\(key)\" but found \(describeCurrent())")
                }
                index += 1
                skipWhitespace()
                let member = try value(depth: depth)
                memberStack.append((key, member))
                skipWhitespace()
                guard index < bytes.count else {
                    throw error("object not closed: expected ',' or '}' but the input ended")
                }
                let byte = bytes[index]
                index += 1
                if byte == UInt8(ascii: ",") { continue }
                if byte == UInt8(ascii: "}") { return .object(JSONObject(Array(memberStack[base...]))) }
                index -= 1
                throw error("expected ',' or '}' in object but found \(describeCurrent())")
            }
        }

        mutating func array(depth: Int) throws(JSONParseError) -> JSONValue {
            if depth > JSONParser.maximumDepth { throw error("nesting deeper than \(JSONParser.maximumDepth) levels") }
            index += 1
            skipWhitespace()
            if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array([])
            }
            let base = elementStack.count
            defer { elementStack.removeSubrange(base...) }
            while true {
                skipWhitespace()
                let element = try value(depth: depth)
                elementStack.append(element)
                skipWhitespace()
                guard index < bytes.count else {
                    throw error("array not closed: expected ',' or ']' but the input ended")
                }
                let byte = bytes[index]
                index += 1
                if byte == UInt8(ascii: ",") { continue }
                if byte == UInt8(ascii: "]") { return .array(Array(elementStack[base...])) }
                index -= 1
                throw error("expected ',' or ']' in array but found \(describeCurrent())")
            }
        }

        mutating func string() throws(JSONParseError) -> String {
            let start = index
            index += 1
            let bodyStart = index
            // Fast path: no escapes, so the bytes are the string.
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[bodyStart..<index]), as: UTF8.self)
                    index += 1
                    return text
                }
                if byte == UInt8(ascii: "\\") { break }
                if byte < 0x20 { throw error("control character 0x\(String(byte, radix: 16)) inside a string") }
                index += 1
            }
            guard index < bytes.count else {
                index = start
                throw error("string not closed before the end of the input")
            }
            var buffer = [UInt8](UnsafeBufferPointer(rebasing: bytes[bodyStart..<index]))
            buffer.reserveCapacity(buffer.count + 32)
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    return String(decoding: buffer, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    index += 1
                    guard index < bytes.count else { break }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(escape)
                    case UInt8(ascii: "b"): buffer.append(0x08)
                    case UInt8(ascii: "f"): buffer.append(0x0C)
                    case UInt8(ascii: "n"): buffer.append(0x0A)
                    case UInt8(ascii: "r"): buffer.append(0x0D)
                    case UInt8(ascii: "t"): buffer.append(0x09)
                    case UInt8(ascii: "u"): appendScalar(try unicodeEscape(), to: &buffer)
                    default:
                        index -= 1
                        throw error("unknown escape '\\\(Character(Unicode.Scalar(escape)))' in a string")
                    }
                default:
                    if byte < 0x20 { throw error("control character 0x\(String(byte, radix: 16)) inside a string") }
                    buffer.append(byte)
                    index += 1
                }
            }
            index = start
            throw error("string not closed before the end of the input")
        }

        /// Reads the four hex digits after `\u`, joining a surrogate pair (how the API sends emoji) into one scalar.
        /// A lone surrogate becomes U+FFFD rather than an error: it is bad data, not bad JSON.
        mutating func unicodeEscape() throws(JSONParseError) -> Unicode.Scalar {
            let first = try hexQuad()
            if (0xD800...0xDBFF).contains(first) {
                if index + 1 < bytes.count && bytes[index] == UInt8(ascii: "\\")
                    && bytes[index + 1] == UInt8(ascii: "u")
                {
                    let save = index
                    index += 2
                    let second = try hexQuad()
                    if (0xDC00...0xDFFF).contains(second) {
                        let value = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
                        return Unicode.Scalar(value) ?? "\u{FFFD}"
                    }
                    index = save
                }
                return "\u{FFFD}"
            }
            return Unicode.Scalar(first) ?? "\u{FFFD}"
        }

        mutating func hexQuad() throws(JSONParseError) -> UInt32 {
            guard index + 4 <= bytes.count else { throw error("\\u escape needs four hex digits") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw error("\\u escape needs four hex digits but found \(describeCurrent())")
                }
                value = value << 4 | UInt32(digit)
                index += 1
            }
            return value
        }

        func appendScalar(_ scalar: Unicode.Scalar, to buffer: inout [UInt8]) {
            for unit in UTF8.encode(scalar)! { buffer.append(unit) }
        }

        mutating func number() throws(JSONParseError) -> JSONValue {
            let start = index
            var negative = false
            if bytes[index] == UInt8(ascii: "-") {
                negative = true
                index += 1
            }
            let digitsStart = index
            var magnitude: UInt64 = 0
            var overflow = false
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                let (times, o1) = magnitude.multipliedReportingOverflow(by: 10)
                let (plus, o2) = times.addingReportingOverflow(UInt64(bytes[index] - UInt8(ascii: "0")))
                overflow = overflow || o1 || o2
                magnitude = plus
                index += 1
            }
            let digitCount = index - digitsStart
            guard digitCount > 0 else { throw error("expected digits in a number") }
            if digitCount > 1 && bytes[digitsStart] == UInt8(ascii: "0") {
                index = digitsStart
                throw error("numbers may not have leading zeros")
            }
            var isInteger = true
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                isInteger = false
                index += 1
                let fractionStart = index
                while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                    index += 1
                }
                if index == fractionStart { throw error("expected digits after the decimal point") }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                isInteger = false
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                    index += 1
                }
                let exponentStart = index
                while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                    index += 1
                }
                if index == exponentStart { throw error("expected digits in the exponent") }
            }
            if isInteger && !overflow {
                if negative, magnitude <= UInt64(Int64.max) + 1 {
                    return .int(magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude))
                }
                if !negative, magnitude <= UInt64(Int64.max) { return .int(Int64(magnitude)) }
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            if isInteger { return .bigInteger(text) }
            guard let value = Double(text) else { throw error("unreadable number \(text)") }
            return .double(value)
        }
    }
}

/// Why a JSON text could not be parsed, and where.
public struct JSONParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The byte offset of the problem, counted from 0.
    public var offset: Int
    /// What was wrong.
    public var message: String

    /// Creates a parse error.
    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }

    /// The message with the byte offset, as shown to people.
    public var description: String { "\(message) (at byte \(offset))" }
}
