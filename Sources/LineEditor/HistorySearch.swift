import CLibEdit
import Glibc

/// Ctrl-R: incremental search of the history, drawn as `(history search) 'pattern': match`.
///
/// libedit's own `em-inc-search-prev` writes its prompt as a bare `bck:`, a word it hard-codes, so the shell binds its
/// own. Typing narrows the search, Ctrl-R again finds the next older match, Backspace widens it, Ctrl-G gives the
/// original line back. Any other key (Enter, an arrow, Ctrl-A, Ctrl-C) takes the match into the line and is then
/// handled as usual, so Enter runs the match and Ctrl-C discards it.
struct HistorySearch {
    /// The history, oldest first.
    let entries: [String]
    /// What is being searched for.
    private(set) var pattern = ""
    /// The index in `entries` of the match shown, nil when nothing matches.
    private(set) var matchIndex: Int?

    init(entries: [String]) {
        self.entries = entries
    }

    /// The match shown, if any.
    var match: String? { matchIndex.map { entries[$0] } }

    /// Adds to the pattern: the current match stays if it still matches, else the next older one is found.
    mutating func type(_ text: String) {
        pattern += text
        find(from: matchIndex ?? entries.count - 1)
    }

    /// Removes the last character of the pattern and searches again from the newest entry.
    mutating func deleteBackward() {
        guard !pattern.isEmpty else { return }
        pattern.removeLast()
        find(from: entries.count - 1)
    }

    /// The next older match that differs from the one shown.
    mutating func older() {
        guard let current = matchIndex else { return find(from: entries.count - 1) }
        let shown = entries[current]
        var index = current - 1
        while index >= 0, entries[index] == shown { index -= 1 }
        guard index >= 0 else { return }  // no older match: the shown one stays
        let previous = matchIndex
        find(from: index)
        if matchIndex == nil { matchIndex = previous }
    }

    private mutating func find(from start: Int) {
        guard !pattern.isEmpty else {
            matchIndex = nil
            return
        }
        var index = min(start, entries.count - 1)
        while index >= 0 {
            if entries[index].contains(pattern) {
                matchIndex = index
                return
            }
            index -= 1
        }
        matchIndex = nil
    }

    /// The line drawn while searching, in place of the prompt and the line.
    var display: String {
        let failed = !pattern.isEmpty && matchIndex == nil
        return "(\(failed ? "failed " : "")history search) '\(Self.printable(pattern))': "
            + Self.printable(match ?? "")
    }

    /// History lines are typed text, but a pasted control character must not reach the terminal raw.
    private static func printable(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : $0 }))
    }
}

extension EditorContext {
    /// Runs the search until a key ends it; see `HistorySearch`.
    func searchHistory(_ editor: OpaquePointer) -> UInt8 {
        var cursor: Int32 = 0
        var length: Int32 = 0
        guard let buffer = CLibEdit_el_line(editor, &cursor, &length) else { return UInt8(CC_ERROR) }
        let original = WideText.string(buffer, count: Int(length))
        let originalCursor = Int(cursor)
        var search = HistorySearch(entries: history?.entries ?? [])
        var pushBack: wchar_t?
        var keep = true
        reading: while true {
            _ = CLibEdit_el_write(editor, "\r\u{1B}[K" + search.display)
            var key: wchar_t = 0
            guard el_wgetc(editor, &key) == 1 else { break }
            switch key {
            case 0x12: search.older()  // Ctrl-R
            case 0x7F, 0x08: search.deleteBackward()
            case 0x07:  // Ctrl-G
                keep = false
                break reading
            case 0x03:  // Ctrl-C: the original line, then discarded as usual
                keep = false
                pushBack = key
                break reading
            case 0..<0x20:
                pushBack = key
                break reading
            default:
                if let scalar = Unicode.Scalar(UInt32(key)) { search.type(String(Character(scalar))) }
            }
        }
        _ = CLibEdit_el_write(editor, "\r\u{1B}[K")
        let line = keep ? search.match ?? original : original
        replaceLine(editor, length: length, cursor: Int32(originalCursor), with: line, atEnd: line != original)
        if let pushBack, let scalar = Unicode.Scalar(UInt32(pushBack)) {
            WideText.withCharacters(String(Character(scalar))) { el_wpush(editor, $0) }
        }
        return UInt8(CC_REDISPLAY)
    }

    private func replaceLine(_ editor: OpaquePointer, length: Int32, cursor: Int32, with text: String, atEnd: Bool) {
        _ = el_cursor(editor, length - cursor)  // to the end, so the whole line is before the cursor
        if length > 0 { el_deletestr(editor, length) }
        if !text.isEmpty { _ = WideText.withCharacters(text) { el_winsertstr(editor, $0) } }
        if !atEnd { _ = el_cursor(editor, cursor - Int32(text.unicodeScalars.count)) }
    }
}
