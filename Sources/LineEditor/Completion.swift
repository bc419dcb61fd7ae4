/// What the completion callback is asked about: the whole line and where the cursor is in it.
public struct CompletionRequest: Equatable, Sendable {
    /// The line being edited.
    public let line: String
    /// The cursor position, counted in Unicode scalars from the start of the line (libedit edits scalars).
    public let cursorOffset: Int

    /// Describes a line with the cursor `cursorOffset` scalars in; offsets outside the line are clamped.
    public init(line: String, cursorOffset: Int) {
        self.line = line
        self.cursorOffset = max(0, min(cursorOffset, line.unicodeScalars.count))
    }

    /// The text before the cursor.
    public var textBeforeCursor: String {
        String(String.UnicodeScalarView(line.unicodeScalars.prefix(cursorOffset)))
    }

    /// The text after the cursor.
    public var textAfterCursor: String {
        String(String.UnicodeScalarView(line.unicodeScalars.dropFirst(cursorOffset)))
    }

    /// The word being completed: the text between the last whitespace before the cursor and the cursor.
    /// Candidates replace this word.
    public var word: String {
        let before = line.unicodeScalars.prefix(cursorOffset)
        let start =
            before.lastIndex(where: { $0.properties.isWhitespace }).map { before.index(after: $0) }
            ?? before.startIndex
        return String(String.UnicodeScalarView(before[start...]))
    }
}

/// Produces the candidates for the word before the cursor; each candidate is a full replacement for
/// `CompletionRequest.word`. Called on the reading thread while the line is being edited.
public typealias CompletionHandler = (CompletionRequest) -> [String]

/// What one press of Tab does, decided without a terminal so it can be tested directly.
enum CompletionPlan: Equatable {
    /// Nothing matched: ring the bell.
    case none
    /// Replace the word before the cursor with `text`.
    case replaceWord(String)
    /// Several candidates: replace the word with their longer common prefix, if there is one, and list them.
    case list(replacement: String?, candidates: [String])

    init(request: CompletionRequest, candidates: [String]) {
        var seen = Set<String>()
        let unique = candidates.filter { !$0.isEmpty && seen.insert($0).inserted }
        let word = request.word
        switch unique.count {
        case 0:
            self = .none
        case 1:
            // A finished word gets a separating space, unless one already follows the cursor.
            let next = request.textAfterCursor.unicodeScalars.first
            let needsSpace = !(next?.properties.isWhitespace ?? false)
            self = .replaceWord(unique[0] + (needsSpace ? " " : ""))
        default:
            let prefix = Self.commonPrefix(unique)
            let grows = prefix.unicodeScalars.count > word.unicodeScalars.count && prefix.hasPrefix(word)
            self = .list(replacement: grows ? prefix : nil, candidates: unique.sorted())
        }
    }

    /// The longest run of Unicode scalars every candidate starts with.
    static func commonPrefix(_ candidates: [String]) -> String {
        guard var prefix = candidates.first.map({ Array($0.unicodeScalars) }) else { return "" }
        for candidate in candidates.dropFirst() {
            let length = zip(prefix, candidate.unicodeScalars).prefix(while: { $0 == $1 }).count
            prefix.removeLast(prefix.count - length)
        }
        return String(String.UnicodeScalarView(prefix))
    }
}

/// Lays candidates out in columns that fit the terminal, filled top to bottom like ls(1).
enum CompletionLayout {
    static func rows(_ candidates: [String], width: Int) -> [String] {
        guard !candidates.isEmpty else { return [] }
        let widths = candidates.map(DisplayWidth.of)
        let columnWidth = (widths.max() ?? 0) + 2
        let columns = max(1, min(candidates.count, max(1, width) / max(1, columnWidth)))
        let rowCount = (candidates.count + columns - 1) / columns
        return (0..<rowCount).map { row in
            var text = ""
            for column in 0..<columns {
                let index = column * rowCount + row
                guard index < candidates.count else { break }
                let isLast = column == columns - 1 || (column + 1) * rowCount + row >= candidates.count
                text += candidates[index]
                if !isLast { text += String(repeating: " ", count: columnWidth - widths[index]) }
            }
            return text
        }
    }
}
