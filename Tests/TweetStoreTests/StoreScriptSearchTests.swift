import Foundation
import Synchronization
import Testing
import TweetKit

@testable import TweetStore

/// Chinese, Japanese, Korean and Thai words inside longer runs, beside Latin text, in phrases and as prefixes.
@Suite("Searching scripts written without spaces")
struct StoreScriptSearchTests {
    static let texts: [UInt64: String] = [
        1: "今日はデータベースの勉強をしました",
        2: "我们正在研究中文分词的问题",
        3: "오늘은데이터베이스를공부했습니다",
        4: "ภาษาไทยไม่มีการเว้นวรรคระหว่างคำ",
        5: "Swiftでデータ分析 is fun",
        6: "黒猫",
        7: "猫 and dogs",
        8: "データ",
        9: "open data science",
        10: "東京タワーに行った",
        11: "ข้าวผัดกุ้งอร่อยมาก",
        12: "ﾃﾞｰﾀを見た ２０２４年",
        13: "I ❤️ tokyo",
    ]

    static func store(_ texts: [UInt64: String] = texts) async throws -> TweetStore {
        let store = try TweetStore(location: .inMemory)
        let tweets = texts.sorted { $0.key < $1.key }.map { Tweet(id: TweetID($0.key), text: $0.value, authorID: 1) }
        try await store.insert([Page(tweets: tweets, users: [User(id: 1, username: "u", name: "U")])])
        return store
    }

    func ids(_ store: TweetStore, _ query: String, live: Bool = false) async throws -> [UInt64] {
        var request = SearchRequest(query: query, pageSize: 1_000)
        request.prefixLastWord = live
        return try await store.search(request, cursor: nil).tweets.map(\.id.rawValue).sorted()
    }

    @Test func wordsInsideLongerRunsAreFoundInEachScript() async throws {
        let store = try await Self.store()
        let cases: [(String, [UInt64])] = [
            // Japanese: katakana, kanji and mixed runs, at the start, in the middle and at the end of a run.
            ("データ", [1, 5, 8, 12]), ("データベース", [1]), ("勉強", [1]), ("ました", [1]), ("東京", [10]),
            ("タワー", [10]), ("データ分析", [5]), ("ベースの勉", [1]), ("データベースを", []),
            // Chinese.
            ("研究", [2]), ("中文分词", [2]), ("问题", [2]), ("分词的", [2]), ("研究问题", []),
            // Korean: words with particles attached, and inside the long run.
            ("데이터", [3]), ("데이터베이스", [3]), ("공부", [3]), ("오늘", [3]), ("베이스를", [3]),
            // Thai: grapheme clusters keep their vowel and tone marks.
            ("ภาษาไทย", [4]), ("ไทย", [4]), ("การเว้นวรรค", [4]), ("คำ", [4]), ("ข้าว", [11]), ("กุ้ง", [11]),
            ("อร่อย", [11]), ("ข้า", [11]), ("กง", []), ("ขาว", []),
            // Mixed with Latin: the Latin word beside a run is its own word.
            ("Swift", [5]), ("swift データ", [5]), ("fun データ", [5]), ("data", [9]), ("tokyo", [13]),
            // Width folding: halfwidth katakana and fullwidth digits.
            ("データ を", [1, 12]), ("2024", [12]), ("２０２４年", [12]),
            // Boolean operators around CJK words.
            ("データ -勉強", [5, 8, 12]), ("研究 OR 공부", [2, 3]), ("データ 分析", [5]),
        ]
        for (query, expected) in cases {
            let found = try await ids(store, query)
            #expect(found == expected, "\(query)")
        }
    }

    @Test func singleCharactersMatchAnywhereInARun() async throws {
        let store = try await Self.store()
        #expect(try await ids(store, "猫") == [6, 7], "at a run's end, and alone")
        #expect(try await ids(store, "黒") == [6], "at a run's start")
        #expect(try await ids(store, "ー") == [1, 5, 8, 10, 12], "in the middle of runs")
        #expect(try await ids(store, "を") == [1, 12])
        #expect(try await ids(store, "猫 -黒") == [7])
        #expect(try await ids(store, "는") == [])
        // One character is a prefix of the index tokens, so a Thai consonant also finds it carrying marks (กุ้ง).
        #expect(try await ids(store, "ก") == [4, 11])
    }

    @Test func phrasesKeepWorkingInEveryScript() async throws {
        let store = try await Self.store()
        let cases: [(String, [UInt64])] = [
            ("\"データベースの勉強\"", [1]), ("\"Swiftでデータ\"", [5]), ("\"データ分析 is fun\"", [5]),
            ("\"猫 and\"", [7]), ("\"黒猫\"", [6]), ("\"open data\"", [9]), ("\"data open\"", []),
            // A space inside a quoted phrase is a break in the text too, as between Latin words.
            ("\"データ 分析\"", []), ("\"分析 is\"", [5]), ("\"is 分析\"", []), ("\"猫 dogs\"", []),
        ]
        for (query, expected) in cases {
            let found = try await ids(store, query)
            #expect(found == expected, "\(query)")
        }
    }

    @Test func prefixesOfTheWordBeingTypedWorkInEveryScript() async throws {
        let store = try await Self.store()
        let cases: [(String, [UInt64])] = [
            ("sci", [9]), ("open da", [9]), ("Swi", [5]), ("デー", [1, 5, 8, 12]), ("データベ", [1]), ("黒", [6]),
            ("데이", [3]), ("ภาษ", [4]), ("Swiftでデ", [5]), ("tokyo 東", []), ("is データ", [5]),
        ]
        for (query, expected) in cases {
            let found = try await ids(store, query, live: true)
            #expect(found == expected, "\(query)")
        }
    }

    @Test func changedAndRemovedEntriesLeaveTheIndexConsistent() async throws {
        let store = try await Self.store()
        try await store.insert([Page(tweets: [Tweet(id: 1, text: "今日は映画を見ました", authorID: 1)])])
        #expect(try await ids(store, "データベース") == [])
        #expect(try await ids(store, "映画") == [1])
        try await store.checkIntegrity()
    }

    @Test func theIndexTextSplitsRunsIntoBigramsAndATail() {
        // Compared as bytes: String equality would hide a decomposed character, which FTS5 sees as another token.
        func index(_ text: String) -> [UInt8] { Array(ScriptNGrams.indexText(text).utf8) }
        func query(_ text: String) -> [UInt8] { Array(ScriptNGrams.queryText(text).text.utf8) }
        #expect(index("plain text, café") == Array("plain text, café".utf8))
        #expect(index("東京タワー") == Array(" 東京 京タ タワ ワー ー ".utf8))
        #expect(index("猫") == Array(" 猫 ".utf8))
        #expect(index("Swiftで本") == Array("Swift で本 本 ".utf8))
        #expect(index("ข้าวผัด") == Array(" ข้า าว วผั ผัด ด ".utf8))
        #expect(index("ﾃﾞｰﾀ") == Array(" \u{30C7}\u{30FC} \u{30FC}\u{30BF} \u{30BF} ".utf8), "widened and composed")
        #expect(index("\u{30C6}\u{3099}") == Array(" \u{30C7} ".utf8), "composed")
        #expect(index("\u{1100}\u{1161}\u{11A8}") == Array(" \u{AC01} ".utf8), "jamo composed to a syllable")
        #expect(index("ＡＢＣ１ a\u{FE0F}b") == Array("ABC1 ab".utf8))
        #expect(query("東京タワー") == Array(" 東京 京タ タワ ワー ".utf8))
        #expect(query("猫 dogs") == Array(" 猫  dogs".utf8))
        #expect(query("Swiftで") == Array("Swift で ".utf8))
        #expect(ScriptNGrams.queryText("猫").prefix && ScriptNGrams.queryText("Swiftで").prefix)
        #expect(!ScriptNGrams.queryText("東京").prefix && !ScriptNGrams.queryText("猫 dogs").prefix)
    }

    /// The quick path for runs of scalars that are whole characters writes what splitting into characters wrote: an
    /// index built before needs the same bytes back to remove an entry.
    @Test func wholeCharacterRunsGiveWhatSplittingIntoCharactersGave() {
        let ranges: [ClosedRange<UInt32>] = [
            0x3041...0x3096, 0x309B...0x309F, 0x30A1...0x30FA, 0x30FC...0x30FF, 0x31F0...0x31FF, 0x3131...0x318E,
            0xAC00...0xD7A3, 0x3005...0x3007, 0x3021...0x3029, 0x3038...0x303B, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xF900...0xFAFF, 0x20000...0x3FFFF,
        ]
        var random = SplitMix64(seed: 0x3099)
        let scalars = ranges.flatMap { $0 }.compactMap(Unicode.Scalar.init)
        for scalar in scalars
        where !ScriptNGrams.isWholeCharacter(scalar.value) || !ScriptNGrams.isRunScalar(scalar.value) {
            Issue.record("U+\(String(scalar.value, radix: 16)) is not a whole-character run scalar")
        }
        for _ in 0..<3_000 {
            let length = Int.random(in: 1...9, using: &random)
            var run = String.UnicodeScalarView()
            for _ in 0..<length { run.append(scalars.randomElement(using: &random)!) }
            let text = String(run)
            for endsHere in [true, false] {
                var quick = String.UnicodeScalarView()
                var slow = String.UnicodeScalarView()
                let quickCount = ScriptNGrams.flush(text, endsHere: endsHere, into: &quick)
                let slowCount = ScriptNGrams.flushByCharacter(text, endsHere: endsHere, into: &slow)
                #expect(quickCount == slowCount && Array(String(quick).utf8) == Array(String(slow).utf8), "\(text)")
            }
        }
    }

    /// For random substrings of a generated corpus, the search returns exactly the tweets whose text contains them.
    @Test func randomSubstringsFindExactlyTheTweetsThatContainThem() async throws {
        var random = SplitMix64(seed: 0x5EED_C1C1)
        // Few distinct characters, so most substrings occur in several tweets and many near-misses exist.
        let alphabets: [[Character]] = [
            Array("日本語東京都大学"), Array("データベースタワ"), Array("のはをにでした"), Array("中文研究分词问题"),
            Array("데이터베스오늘공부"), Array("กขคงจาเแโไ"),
        ]
        let latin = ["data", "swift", "tokyo", "2024", "a", "fun"]
        let separators = [" ", "、", "。", " ", "!", "・"]
        var texts: [UInt64: String] = [:]
        for id in 1...300 {
            var text = ""
            for _ in 0..<Int.random(in: 1...5, using: &random) {
                if Int.random(in: 0..<4, using: &random) == 0 {
                    text += latin.randomElement(using: &random)!
                } else {
                    let alphabet = alphabets.randomElement(using: &random)!
                    for _ in 0..<Int.random(in: 1...12, using: &random) {
                        text.append(alphabet.randomElement(using: &random)!)
                    }
                }
                if Int.random(in: 0..<3, using: &random) > 0 { text += separators.randomElement(using: &random)! }
            }
            texts[UInt64(id)] = text
        }
        let store = try await Self.store(texts)
        let corpus = Array(texts.values)
        var checked = 0
        while checked < 300 {
            let characters = Array(corpus.randomElement(using: &random)!)
            let length = Int.random(in: 1...6, using: &random)
            guard characters.count >= length else { continue }
            let start = Int.random(in: 0...(characters.count - length), using: &random)
            let needle = String(characters[start..<(start + length)])
            // Substrings of CJK and Thai characters only, the first ones of one character and then of two and more.
            guard needle.unicodeScalars.allSatisfy({ ScriptNGrams.isRunScalar($0.value) }),
                checked >= 20 || length == 1, checked < 20 || length >= 2
            else { continue }
            checked += 1
            let expected = texts.filter { $0.value.contains(needle) }.keys.sorted()
            #expect(try await ids(store, needle) == expected, "\(needle)")
            #expect(try await ids(store, "\"\(needle)\"") == expected, "\"\(needle)\"")
        }
    }

    @Test func aVersionTwoStoreIsIndexedAgain() async throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("v2.sqlite").path
        do {
            let connection = try Connection(path: path)
            try connection.execute(
                Schema.migrations[0].sql + ";" + Schema.migrations[1].sql + "; PRAGMA user_version = 2;")
            // Rows and index entries as version 2 wrote them: the body as it came, one token per run.
            try connection.execute(
                """
                INSERT INTO users(id, username, name) VALUES (1, 'alice', 'Alice');
                INSERT INTO tweets(id, author_id, flags, text) VALUES
                    (100, 1, 256, '今日はデータベースの勉強'), (200, 1, 256, 'hello world');
                INSERT INTO tweets_fts(rowid, body, tags, cashtags, mentions, urls, refs) VALUES
                    (100, '今日はデータベースの勉強', '', '', '', '', 'a1 c100'),
                    (200, 'hello world', '', '', '', '', 'a1 c200');
                """)
            connection.close()
        }
        let announced = Mutex<[Int]>([])
        let store = try TweetStore(location: .file(path)) { tweets in announced.withLock { $0.append(tweets) } }
        #expect(announced.withLock { $0 } == [2])
        #expect(try await store.database.run { try $0.scalar("PRAGMA user_version") } == Int64(Schema.currentVersion))
        #expect(try await ids(store, "データ") == [100])
        #expect(try await ids(store, "勉強 from:alice") == [100])
        #expect(try await ids(store, "hello") == [200])
        try await store.checkIntegrity()
    }
}
