import Testing
import TweetKit
import TweetStore

@testable import PostgresStore

/// `DocumentVector` writes a document's lexemes as bytes, in `tsvector` order. These tests read its binary back and
/// compare it with the rules stated plainly: each column's tokens (from `IndexTokenizer.tokens`, which queries use)
/// behind the column's mark, positions counted across the document, at most 256 per lexeme, 16,383 the last.
@Suite("PostgreSQL index documents")
struct DocumentVectorTests {
    /// Lexemes with their positions, in order.
    typealias Lexemes = [(lexeme: [UInt8], positions: [Int])]

    /// A `tsvector` field read back: its lexemes in written order, with their positions.
    private static func read(_ field: ArraySlice<UInt8>) -> Lexemes {
        var at = field.startIndex
        func take(_ count: Int) -> Int {
            var value = 0
            for _ in 0..<count {
                value = value << 8 | Int(field[at])
                at += 1
            }
            return value
        }
        let count = take(4)
        var lexemes: Lexemes = []
        for _ in 0..<count {
            let end = field[at...].firstIndex(of: 0)!
            let lexeme = Array(field[at..<end])
            at = end + 1
            let positions = (0..<take(2)).map { _ in take(2) }
            lexemes.append((lexeme, positions))
        }
        #expect(at == field.endIndex, "bytes left after the last lexeme")
        return lexemes
    }

    /// The one field of `document` as `DocumentVector` writes it.
    private static func written(_ document: TweetDocument, extra: [String] = []) -> Lexemes {
        var rows = BinaryCopyRows()
        let headerEnd = rows.bytes.count
        var builder = DocumentVector()
        rows.startRow()
        builder.write(document, extra: extra, to: &rows)
        rows.endRow()
        // Past the header: the row's field count (2 bytes) and the field's length (4).
        let field = rows.bytes[(headerEnd + 6)...]
        let length = rows.bytes[(headerEnd + 2)..<(headerEnd + 6)].reduce(0) { $0 << 8 | Int($1) }
        #expect(length == field.count)
        return read(field)
    }

    /// The lexemes the rules give, sorted as `tsvector` keeps them.
    private static func expected(_ document: TweetDocument, extra: [String] = []) -> Lexemes {
        var positions: [[UInt8]: [Int]] = [:]
        var position = 0
        let columns = [
            ("", document.body), ("#", document.tags), ("$", document.cashtags), ("@", document.mentions),
            ("/", document.urls), ("~", document.refs),
        ]
        for (mark, text) in columns {
            for token in IndexTokenizer.tokens(text) {
                position = min(position + 1, 16_383)
                let lexeme = Array((mark + token).utf8)
                guard lexeme.count <= 2_046 else { continue }
                var kept = positions[lexeme, default: []]
                if kept.count < 256, kept.last != position { kept.append(position) }
                positions[lexeme] = kept
            }
        }
        for lexeme in extra { positions[Array(lexeme.utf8), default: []] += [] }
        return positions.map { ($0.key, $0.value) }.sorted { $0.lexeme.lexicographicallyPrecedes($1.lexeme) }
    }

    private static func document(_ text: String, tags: String = "", mentions: String = "", refs: String = "")
        -> TweetDocument
    {
        var document = TweetDocument(Tweet(id: TweetID(1), text: text))
        document.tags = tags
        document.mentions = mentions
        document.refs = refs
        return document
    }

    private static func same(_ a: Lexemes, _ b: Lexemes)
        -> Bool
    {
        a.count == b.count && zip(a, b).allSatisfy { $0.lexeme == $1.lexeme && $0.positions == $1.positions }
    }

    @Test(arguments: [
        "The cat saw the other cat, then THE dog.",
        "Café naïve Ærø Straße ΣΑΣ łódź",
        "東京タワーに行きました 서울 กรุงเทพ",
        "swift_lang SWIFT_Lang swift-lang a_b_c",
        "",
        "!!! ??? ...",
        "emoji 🎉 between 🎉 words 👩‍👩‍👧",
        "x x x x x",
    ])
    func lexemesAndPositionsFollowTheRules(_ text: String) {
        let document = Self.document(text, tags: "Swift swift", mentions: "jack", refs: "a12 r34 c56")
        let written = Self.written(document, extra: ["=f0", "=len"])
        let expected = Self.expected(document, extra: ["=f0", "=len"])
        #expect(Self.same(written, expected), "\(written.map { String(decoding: $0.lexeme, as: UTF8.self) })")
    }

    @Test func columnsStayApartAndSortByteWise() {
        let written = Self.written(Self.document("swift b a", tags: "swift", mentions: "swift"))
        let lexemes = written.map { String(decoding: $0.lexeme, as: UTF8.self) }
        // "#" (0x23) < "@" (0x40) < letters; a prefix sorts before the longer lexeme.
        #expect(lexemes == ["#swift", "@swift", "a", "b", "swift"])
        #expect(written.map(\.positions) == [[4], [5], [3], [2], [1]])
    }

    @Test func aLexemeKeeps256PositionsAndPositionsStopAtTheLast() {
        let many = Array(repeating: "word", count: 300).joined(separator: " ")
        let written = Self.written(Self.document(many))
        #expect(written.count == 1 && written[0].positions == Array(1...256))

        // Past 16,383 tokens every later token shares the last position, written once.
        let long = (1...16_400).map { "w\($0)" }.joined(separator: " ") + " w16400 w1"
        let document = Self.document(long)
        let result = Self.written(document)
        #expect(Self.same(result, Self.expected(document)))
        let last = result.first { $0.lexeme == Array("w16400".utf8) }
        #expect(last?.positions == [16_383])
        #expect(result.first { $0.lexeme == Array("w1".utf8) }?.positions == [1, 16_383])
    }

    @Test func tooLongLexemesAreLeftOutButCountAPosition() {
        let long = String(repeating: "x", count: 2_046)
        let document = Self.document("a \(long) b", tags: long)
        let written = Self.written(document)
        #expect(Self.same(written, Self.expected(document)))
        #expect(written.map(\.lexeme.count).sorted() == [1, 1, 2_046])
        #expect(written.first { $0.lexeme == [UInt8(ascii: "b")] }?.positions == [3])
    }

    @Test func manyDistinctLexemesGrowTheTableWithoutLosingOne() {
        let text = (0..<5_000).map { "t\($0 * 7919 % 10_007)" }.joined(separator: " ")
        let document = Self.document(text)
        let written = Self.written(document)
        #expect(written.count == 5_000)
        #expect(Self.same(written, Self.expected(document)))
    }

    @Test func oneBuilderGivesEachDocumentOnlyItsOwnLexemes() {
        var rows = BinaryCopyRows()
        var builder = DocumentVector()
        rows.startRow()
        builder.write(Self.document("first words here"), extra: [], to: &rows)
        rows.endRow()
        let afterFirst = rows.bytes.count
        rows.startRow()
        builder.write(Self.document("second"), extra: [], to: &rows)
        rows.endRow()
        let second = Self.read(rows.bytes[(afterFirst + 6)...])
        #expect(second.count == 1 && second[0].lexeme == Array("second".utf8) && second[0].positions == [1])
    }

    /// The tokenizer's rules written plainly, scalar by scalar, as an oracle for its byte-wise loop.
    private static func scalarTokens(_ text: String) -> [String] {
        var tokens: [String] = []
        var current = String.UnicodeScalarView()
        func end() {
            if !current.isEmpty { tokens.append(String(current)) }
            current = String.UnicodeScalarView()
        }
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                let value = scalar.value
                if (65...90).contains(value) {
                    current.append(Unicode.Scalar(value + 32)!)
                } else if (97...122).contains(value) || (48...57).contains(value) || value == 95 {
                    current.append(scalar)
                } else {
                    end()
                }
                continue
            }
            guard IndexTokenizer.isTokenScalar(scalar) else {
                end()
                continue
            }
            for lower in scalar.properties.lowercaseMapping.unicodeScalars
            where !IndexTokenizer.isDiacritic(lower.value) {
                let decomposed = String(lower).decomposedStringWithCanonicalMapping.unicodeScalars
                let latin = (0xC0...0x24F).contains(lower.value) || (0x1E00...0x1EFF).contains(lower.value)
                if latin, let base = decomposed.first, base.isASCII, decomposed.count > 1 {
                    current.append(base)
                } else {
                    current.append(lower)
                }
            }
        }
        end()
        return tokens
    }

    @Test func theByteWiseTokenizerFollowsTheScalarRules() {
        // Every Latin letter with a diacritic, then random mixtures of scripts, marks, emoji and separators.
        let latin = (Array(0xC0...0x24F) + Array(0x1E00...0x1EFF)).compactMap { Unicode.Scalar(UInt32($0)) }
        let latinText = String(String.UnicodeScalarView(latin))
        #expect(IndexTokenizer.tokens(latinText) == Self.scalarTokens(latinText))
        let pieces = [
            "a", "Z", "_", "9", " ", "-", "'", "é", "Ø", "ß", "İ", "ǅ", "Σ", "ς", "東", "京", "한", "ก", "\u{0301}",
            "\u{064E}", "\u{0E31}", "🎉", "👩‍👧", "\u{E000}", "①", "Ⅻ", "\u{200B}", "\u{00A0}", "\u{FEFF}", "ﬁ", "Ａ",
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 0...24, using: &generator)).map { _ in pieces.randomElement()! }.joined()
            #expect(IndexTokenizer.tokens(text) == Self.scalarTokens(text), "\(text.unicodeScalars.map(\.value))")
        }
    }
}
