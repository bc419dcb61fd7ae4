/// Splits text into index tokens exactly as the SQLite store's FTS5 tokenizer (`unicode61 remove_diacritics 2
/// categories 'L* N* Co M*' tokenchars '_'`) does, so a `tsvector` built from these tokens matches the same tweets as the SQLite index.
///
/// PostgreSQL's own parser would not do: it keeps e-mail addresses, URLs and hyphenated words whole, splits at `_`,
/// and folds case by locale. The store therefore tokenizes in Swift and hands PostgreSQL finished lexemes.
///
/// The rules, checked against SQLite (PostgresEquivalenceTests): letters, digits, marks, private-use characters and
/// `_` make tokens, anything else separates them; case is folded scalar by scalar (`ΣΑΣ` → `σασ`, never a final
/// sigma); Latin letters lose their diacritics (`Café` → `cafe`, but `ø`, `ł`, `ß` stay); the combining diacritics
/// FTS5 knows (most of U+0300–U+0331) are dropped from a token, other marks (Arabic harakat, Thai vowels) stay in it.
enum IndexTokenizer {
    /// The tokens of `text`, in order.
    static func tokens(_ text: String) -> [String] {
        var tokens: [String] = []
        var token: [UInt8] = []
        forEachToken(in: text, token: &token) { tokens.append(String(decoding: $0, as: UTF8.self)) }
        return tokens
    }

    /// Calls `body` with each token of `text` in order, as UTF-8 bytes in `token` (a buffer the caller keeps, so a
    /// document's many tokens reuse one allocation). Queries (`tokens`) and documents (`DocumentVector`) share this
    /// one loop, so a query's words are always the index's.
    static func forEachToken(in text: String, token: inout [UInt8], _ body: (ArraySlice<UInt8>) -> Void) {
        token.removeAll(keepingCapacity: true)
        var text = text
        text.withUTF8 { bytes in
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                // ASCII first, without the Unicode tables: its letters and digits are its only L* and N* scalars, and
                // `_` is the one token character beside them; case folds by one bit.
                if byte < 0x80 {
                    index += 1
                    switch byte {
                    case UInt8(ascii: "A")...UInt8(ascii: "Z"): token.append(byte | 0x20)
                    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                        UInt8(ascii: "_"):
                        token.append(byte)
                    default:
                        if !token.isEmpty { body(token[...]) }
                        token.removeAll(keepingCapacity: true)
                    }
                    continue
                }
                // A String's bytes are valid UTF-8: the lead byte gives the length.
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
                var value = UInt32(byte) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
                for offset in 1..<length { value = value << 6 | UInt32(bytes[index + offset] & 0x3F) }
                index += length
                guard let scalar = Unicode.Scalar(value), isTokenScalar(scalar) else {
                    if !token.isEmpty { body(token[...]) }
                    token.removeAll(keepingCapacity: true)
                    continue
                }
                for lower in scalar.properties.lowercaseMapping.unicodeScalars where !isDiacritic(lower.value) {
                    UTF8.encode(withoutDiacritic(lower)) { token.append($0) }
                }
            }
        }
        if !token.isEmpty { body(token[...]) }
    }

    /// Letters (L*), numbers (N*), private use (Co), marks (M*) and `_`: the SQLite store's
    /// `categories 'L* N* Co M*' tokenchars '_'`.
    static func isTokenScalar(_ scalar: Unicode.Scalar) -> Bool {
        if scalar == "_" { return true }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .decimalNumber, .letterNumber, .otherNumber, .privateUse, .nonspacingMark, .spacingMark, .enclosingMark:
            return true
        default:
            return false
        }
    }

    /// The combining marks FTS5's `remove_diacritics` treats as diacritics (its bit masks over U+0300–U+0331).
    static func isDiacritic(_ value: UInt32) -> Bool {
        guard value >= 0x300, value <= 0x331 else { return false }
        let low: UInt32 = 0x0802_9FDF
        let high: UInt32 = 0x0003_61F8
        return value < 0x320 ? low & (1 << (value - 0x300)) != 0 : high & (1 << (value - 0x320)) != 0
    }

    /// A Latin letter with diacritics as its base letter; any other scalar as it is.
    static func withoutDiacritic(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        let value = scalar.value
        let base: UInt8
        switch value {
        case 0xC0...0x24F: base = latinBases[Int(value - 0xC0)]
        case 0x1E00...0x1EFF: base = latinBases[Int(value - 0x1E00) + 0x190]
        default: return scalar
        }
        return base == 0 ? scalar : Unicode.Scalar(base)
    }

    /// The ASCII base letter of each scalar in U+00C0–U+024F, then U+1E00–U+1EFF (0 where there is none), worked
    /// out once from the canonical decompositions: asking Foundation for each letter of each tweet cost the import
    /// 2.7% of its decoding thread.
    private static let latinBases: [UInt8] = (Array(0xC0...0x24F) + Array(0x1E00...0x1EFF)).map { value in
        guard let scalar = Unicode.Scalar(UInt32(value)) else { return 0 }
        let decomposed = String(scalar).decomposedStringWithCanonicalMapping.unicodeScalars
        guard let base = decomposed.first, base.isASCII, decomposed.count > 1 else { return 0 }
        return UInt8(base.value)
    }
}
