/// A command line cut into words, keeping where each word started so that a query can be taken raw.
///
/// Quotes group words for arguments like file names, but a search query is passed on with its quotes intact
/// (`"exact phrase"` is query syntax), so parsers take `raw(_:)` or `rest(from:)` rather than re-joining `text`.
struct CommandWords {
    /// One word: its text with quotes removed, and where it stands in the line (Character offsets, 0-based;
    /// `end` is exclusive).
    struct Word: Equatable {
        var text: String
        var offset: Int
        var end: Int = 0
    }

    let line: String
    let words: [Word]
    /// The index of each Character of `line`, and its end: `raw` and `rest` look offsets up here, as offsetting from
    /// the start for every word made a search of 10,000 `-word OR …` terms spend 90% of a minute parsing.
    private let indices: [String.Index]

    init(_ line: String) throws(CommandError) {
        self.line = line
        var words: [Word] = []
        var current = ""
        var start: Int?
        var quote: Character?
        var quoteStart = 0
        for (offset, character) in line.enumerated() {
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
                continue
            }
            if character == "\"" || character == "'" {
                quote = character
                quoteStart = offset
                if start == nil { start = offset }
            } else if character == " " || character == "\t" {
                if let s = start {
                    words.append(Word(text: current, offset: s, end: offset))
                    current = ""
                    start = nil
                }
            } else {
                if start == nil { start = offset }
                current.append(character)
            }
        }
        if quote != nil {
            throw CommandError("unclosed quote", column: quoteStart + 1)
        }
        if let s = start { words.append(Word(text: current, offset: s, end: line.count)) }
        self.words = words
        indices = Array(line.indices) + [line.endIndex]
    }

    /// Words the user's shell has already split (a one-shot `tweetsh search '"open data"'`): each argument is one
    /// word, taken verbatim. Nothing is unquoted, re-split or re-quoted, so a query keeps its quotes and `;`. The line
    /// is the arguments joined by spaces, so columns in messages still point into something the user can read.
    init(arguments: [String]) {
        var words: [Word] = []
        var offset = 0
        for argument in arguments {
            words.append(Word(text: argument, offset: offset, end: offset + argument.count))
            offset += argument.count + 1
        }
        self.line = arguments.joined(separator: " ")
        self.words = words
        indices = Array(line.indices) + [line.endIndex]
    }

    /// The raw text of the line from word `index` to the end, quotes kept, trailing spaces trimmed.
    func rest(from index: Int) -> String {
        guard index < words.count else { return "" }
        let startIndex = indices[words[index].offset]
        return String(line[startIndex...]).trimmingTrailingSpaces()
    }

    /// A word exactly as typed, quotes included.
    func raw(_ word: Word) -> String {
        String(line[indices[word.offset]..<indices[word.end]])
    }

    /// Splits a script or `-c` argument into statements at `;` outside quotes.
    static func statements(_ text: String) -> [String] {
        var result: [String] = []
        var current = ""
        var quote: Character?
        for character in text {
            if let open = quote {
                if character == open { quote = nil }
                current.append(character)
            } else if character == "\"" || character == "'" {
                quote = character
                current.append(character)
            } else if character == ";" || character == "\n" {
                result.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        result.append(current)
        return result.map { $0.trimmingCharacters() }.filter { !$0.isEmpty }
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var end = endIndex
        while end > startIndex, let last = self[..<end].last, last == " " || last == "\t" || last == "\r" {
            end = index(before: end)
        }
        return String(self[..<end])
    }

    func trimmingCharacters() -> String {
        var start = startIndex
        while start < endIndex, self[start] == " " || self[start] == "\t" || self[start] == "\r" {
            start = index(after: start)
        }
        return String(self[start...]).trimmingTrailingSpaces()
    }
}

/// A command the shell could not understand, with the 1-based column where the problem is when known.
public struct CommandError: Error, Equatable, CustomStringConvertible, Sendable {
    /// What was wrong, in words a person can act on.
    public var message: String
    /// The 1-based column in the command line, when the problem has a place.
    public var column: Int?

    /// Creates an error.
    public init(_ message: String, column: Int? = nil) {
        self.message = message
        self.column = column
    }

    /// `message`, with the column when known.
    public var description: String {
        column.map { "\(message) (column \($0))" } ?? message
    }
}
