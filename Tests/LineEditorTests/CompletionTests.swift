import Testing

@testable import LineEditor

@Suite("Completion")
struct CompletionTests {
    @Test("the word is the text after the last space before the cursor")
    func word() {
        #expect(CompletionRequest(line: "search #sw", cursorOffset: 10).word == "#sw")
        #expect(CompletionRequest(line: "search #sw more", cursorOffset: 10).word == "#sw")
        #expect(CompletionRequest(line: "search ", cursorOffset: 7).word == "")
        #expect(CompletionRequest(line: "sea", cursorOffset: 3).word == "sea")
        #expect(CompletionRequest(line: "café x", cursorOffset: 4).word == "café")
        #expect(CompletionRequest(line: "a\tb", cursorOffset: 3).word == "b")
    }

    @Test("cursor offsets count Unicode scalars and are clamped")
    func offsets() {
        let request = CompletionRequest(line: "日本 🐦 x", cursorOffset: 4)
        #expect(request.textBeforeCursor == "日本 🐦")
        #expect(request.textAfterCursor == " x")
        #expect(CompletionRequest(line: "ab", cursorOffset: 99).cursorOffset == 2)
        #expect(CompletionRequest(line: "ab", cursorOffset: -3).cursorOffset == 0)
    }

    @Test("no candidates rings the bell")
    func none() {
        #expect(CompletionPlan(request: .init(line: "zz", cursorOffset: 2), candidates: []) == .none)
        #expect(CompletionPlan(request: .init(line: "zz", cursorOffset: 2), candidates: [""]) == .none)
    }

    @Test("one candidate replaces the word and adds a space")
    func single() {
        let plan = CompletionPlan(request: .init(line: "show @ja", cursorOffset: 8), candidates: ["@jack"])
        #expect(plan == .replaceWord("@jack "))
    }

    @Test("in the middle of a line, no space is added before an existing one")
    func singleMidLine() {
        let plan = CompletionPlan(request: .init(line: "show @ja more", cursorOffset: 8), candidates: ["@jack"])
        #expect(plan == .replaceWord("@jack"))
        let glued = CompletionPlan(request: .init(line: "show @jamore", cursorOffset: 8), candidates: ["@jack"])
        #expect(glued == .replaceWord("@jack "))
    }

    @Test("several candidates insert their common prefix and are listed sorted")
    func several() {
        let plan = CompletionPlan(request: .init(line: "#s", cursorOffset: 2), candidates: ["#swiftlang", "#swift"])
        #expect(plan == .list(replacement: "#swift", candidates: ["#swift", "#swiftlang"]))
    }

    @Test("when the prefix adds nothing, only the list is shown")
    func severalNoProgress() {
        let plan = CompletionPlan(request: .init(line: "s", cursorOffset: 1), candidates: ["show", "search", "show"])
        #expect(plan == .list(replacement: nil, candidates: ["search", "show"]))
    }

    @Test("duplicate candidates count once")
    func duplicates() {
        let plan = CompletionPlan(request: .init(line: "mo", cursorOffset: 2), candidates: ["more", "more"])
        #expect(plan == .replaceWord("more "))
    }

    @Test("common prefixes compare Unicode scalars")
    func prefix() {
        #expect(CompletionPlan.commonPrefix(["café", "cafés", "cafe"]) == "caf")
        #expect(CompletionPlan.commonPrefix(["日本語", "日本"]) == "日本")
        #expect(CompletionPlan.commonPrefix(["a", "b"]) == "")
        #expect(CompletionPlan.commonPrefix([]) == "")
    }

    @Test("the list is laid out in columns that fit, filled top to bottom")
    func layout() {
        let rows = CompletionLayout.rows(["a1", "a2", "a3", "a4", "a5"], width: 12)
        // Columns are 4 wide (2 + 2), so three fit in 12; five items take two rows.
        #expect(rows == ["a1  a3  a5", "a2  a4"])
        #expect(CompletionLayout.rows(["only"], width: 2) == ["only"])
        #expect(CompletionLayout.rows([], width: 80) == [])
    }

    @Test("wide characters take two columns in the layout")
    func layoutWide() {
        let rows = CompletionLayout.rows(["日本", "ab"], width: 80)
        #expect(rows == ["日本  ab"])
        #expect(DisplayWidth.of("日本") == 4)
        #expect(DisplayWidth.of("café") == 4)
    }
}

@Suite("Prompt text")
struct PromptTextTests {
    @Test("escape sequences are wrapped in the invisible-text delimiter")
    func marksEscapes() {
        let prompt = "\u{1B}[1;34mdemo\u{1B}[0m> "
        #expect(PromptText.marked(prompt) == "\u{1}\u{1B}[1;34m\u{1}demo\u{1}\u{1B}[0m\u{1}> ")
        #expect(PromptText.visible(prompt) == "demo> ")
    }

    @Test("OSC titles and stray delimiters are handled")
    func osc() {
        let prompt = "\u{1B}]0;title\u{07}\u{1}x> "
        #expect(PromptText.marked(prompt) == "\u{1}\u{1B}]0;title\u{07}\u{1}x> ")
        #expect(PromptText.visible(prompt) == "x> ")
    }

    @Test("a truncated escape at the end does not crash")
    func truncated() {
        #expect(PromptText.marked("a\u{1B}[3") == "a\u{1}\u{1B}[3\u{1}")
        #expect(PromptText.marked("a\u{1B}") == "a\u{1}\u{1B}\u{1}")
        #expect(PromptText.visible("plain> ") == "plain> ")
    }
}

@Suite("Wide text")
struct WideTextTests {
    @Test("strings survive the trip through wchar_t")
    func roundTrip() {
        for text in ["", "ascii", "café", "日本語", "🐦‍⬛", "tab\tnew\nline"] {
            let wide = WideText.characters(text)
            #expect(wide.last == 0)
            let back = wide.withUnsafeBufferPointer { WideText.string($0.baseAddress!) }
            #expect(back == text)
        }
    }

    @Test("embedded NULs are dropped rather than truncating")
    func nul() {
        let wide = WideText.characters("a\u{0}b")
        #expect(wide.withUnsafeBufferPointer { WideText.string($0.baseAddress!) } == "ab")
    }
}
