/// Decides from a stream's first bytes what it holds: compressed data, JSON text (and how it is laid out), an X
/// archive's script file, or something that is not JSON at all, which is then named.
enum InputDetector {
    /// How many bytes detection looks at.
    static let prefixLength = 64 << 10

    /// What the first bytes say.
    enum Verdict: Equatable {
        case compressed(Compression)
        case json(JSONFraming)
        /// `window.YTD.tweets.part0 = [...]`: a file of an X account archive.
        case archiveScript
        /// Not JSON text; the reason reads after "not JSON text: ".
        case refused(String)
    }

    /// The verdict on a stream's first bytes; `complete` says they are all of it.
    static func verdict(_ prefix: [UInt8], complete: Bool) -> Verdict {
        if let compression = Compression.detect(prefix) { return .compressed(compression) }
        if let binary = binaryKind(prefix) { return .refused("looks like \(binary)") }
        var start = prefix.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < prefix.count, isWhitespace(prefix[start]) { start += 1 }
        // Empty or blank: nothing to import, which is not an error.
        if start == prefix.count { return .json(.lines) }
        switch prefix[start] {
        case UInt8(ascii: "["): return .json(.values)
        case UInt8(ascii: "{"): return .json(objectFraming(prefix, from: start, complete: complete))
        case UInt8(ascii: "<"): return .refused("looks like HTML or XML")
        default: break
        }
        let text = prefix[start...]
        if text.starts(with: Array("window.YTD.".utf8)) { return .archiveScript }
        let firstLine = text.prefix { $0 != 0x0A }
        let commas = firstLine.lazy.filter { $0 == UInt8(ascii: ",") || $0 == 0x09 }.count
        if commas >= 2 { return .refused("looks like CSV or TSV text") }
        return .refused("looks like plain text")
    }

    /// JSON Lines when the first object closes on its own line or the next line starts another one; otherwise a
    /// document whose values span lines (`jq .` output, pretty-printed API responses).
    private static func objectFraming(_ prefix: [UInt8], from start: Int, complete: Bool) -> JSONFraming {
        var scanner = ValueScanner()
        var index = start
        while index < prefix.count, prefix[index] != 0x0A {
            if scanner.consume(prefix[index]) == .closed { return .lines }
            index += 1
        }
        // The first line did not close its object: pretty-printed, unless each line is its own (broken) object.
        index += 1
        while index < prefix.count, isWhitespace(prefix[index]), prefix[index] != 0x0A { index += 1 }
        if index < prefix.count, prefix[index] == UInt8(ascii: "{") { return .lines }
        if index >= prefix.count, !complete { return .lines }
        return .values
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// Names well-known binary formats by their magic numbers, then anything with NUL bytes or invalid UTF-8.
    static func binaryKind(_ prefix: [UInt8]) -> String? {
        let magics: [(bytes: [UInt8], offset: Int, name: String)] = [
            ([0x89, 0x50, 0x4E, 0x47], 0, "a PNG image"),
            ([0xFF, 0xD8, 0xFF], 0, "a JPEG image"),
            (Array("GIF8".utf8), 0, "a GIF image"),
            (Array("WEBP".utf8), 8, "a WebP image"),
            (Array("ftyp".utf8), 4, "an MP4 or QuickTime video"),
            (Array("PK".utf8) + [0x03, 0x04], 0, "a ZIP archive"),
            (Array("PK".utf8) + [0x05, 0x06], 0, "a ZIP archive"),
            (Array("%PDF".utf8), 0, "a PDF document"),
            (Array("SQLite format 3".utf8) + [0], 0, "an SQLite database"),
            ([0x7F] + Array("ELF".utf8), 0, "an executable program"),
            ([0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C], 0, "a 7-Zip archive"),
            (Array("Rar!".utf8), 0, "a RAR archive"),
            (Array("ustar".utf8), 257, "a tar archive"),
            (Array("PAR1".utf8), 0, "a Parquet file"),
            ([0x04, 0x22, 0x4D, 0x18], 0, "LZ4-compressed data, which tweetsh does not read"),
            ([0xFF, 0xFE], 0, "UTF-16 text; save it as UTF-8"),
            ([0xFE, 0xFF], 0, "UTF-16 text; save it as UTF-8"),
        ]
        for magic in magics where prefix.count >= magic.offset + magic.bytes.count {
            if prefix[magic.offset..<(magic.offset + magic.bytes.count)].elementsEqual(magic.bytes) {
                return magic.name
            }
        }
        if prefix.contains(0) || !isUTF8(prefix) { return "binary data" }
        return nil
    }

    /// Whether the bytes are UTF-8, allowing a character cut off at the end of the prefix.
    private static func isUTF8(_ bytes: [UInt8]) -> Bool {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let length: Int
            switch byte {
            case 0x00...0x7F: length = 1
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default: return false
            }
            if index + length > bytes.count { return bytes.count - index < 4 }
            for offset in 1..<max(length, 1) where bytes[index + offset] & 0xC0 != 0x80 { return false }
            index += length
        }
        return true
    }
}

/// How the JSON values of a file are laid out.
public enum JSONFraming: String, Hashable, Sendable {
    /// One value per line (JSON Lines, twarc2 output): a bad line never affects the next.
    case lines
    /// Values of any layout one after another; a top-level array contributes each of its elements.
    case values
}
