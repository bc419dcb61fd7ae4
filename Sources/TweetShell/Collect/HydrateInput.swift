import Foundation
import TweetKit

/// The ids a `hydrate` file names: one id or status URL a line (twarc2's `dehydrate` format, or a list of links), or
/// a CSV whose header has an `id` column (twarc-csv's, or any other). Blank lines and `#` comments are skipped; a
/// line that names no tweet is a problem with its line number, and the rest are still read.
struct HydrateInput: Sendable {
    /// A line that could not be read.
    struct Problem: Sendable, Hashable {
        /// 1-based line number (for CSV, the line the record starts on).
        var line: Int
        /// What was wrong.
        var message: String
    }

    /// How the file was read.
    enum Layout: Sendable, Hashable {
        /// One id or URL a line.
        case lines
        /// CSV, the ids in the column at this 0-based index.
        case csv(column: Int)
    }

    /// The ids, each once, in the order of their first line.
    var ids: [TweetID] = []
    /// Lines naming an id already named earlier.
    var duplicates = 0
    /// Lines that could not be read.
    var problems: [Problem] = []
    /// How the file was read.
    var layout = Layout.lines

    /// Reads the text of a file.
    init(text: String) {
        var seen = Set<TweetID>()
        func add(_ id: TweetID) {
            if seen.insert(id).inserted { ids.append(id) } else { duplicates += 1 }
        }
        let lines = Self.lines(text)
        guard let first = lines.firstIndex(where: { !Self.isSkipped($0.text) }) else { return }
        let header = CSVRecords.fields(of: lines[first].text)
        let column = header.firstIndex { $0.trimmingCharacters(in: .whitespaces).lowercased() == "id" }
        if let column, header.count > 1 || lines[first].text.trimmingCharacters(in: .whitespaces).lowercased() == "id" {
            layout = .csv(column: column)
            for record in CSVRecords(lines: lines[(first + 1)...]) {
                guard record.fields.count > column else {
                    problems.append(
                        Problem(
                            line: record.line,
                            message: "the record has \(record.fields.count) field(s), no '\(header[column])' column"))
                    continue
                }
                let value = record.fields[column].trimmingCharacters(in: .whitespaces)
                if let id = Self.id(in: value) {
                    add(id)
                } else {
                    problems.append(Problem(line: record.line, message: Self.complaint(value, what: "id column")))
                }
            }
            return
        }
        if header.count > 1 {
            problems.append(
                Problem(line: lines[first].number, message: "a CSV header needs an 'id' column; this one has none"))
            return
        }
        for line in lines[first...] where !Self.isSkipped(line.text) {
            let value = line.text.trimmingCharacters(in: .whitespaces)
            if let id = Self.id(in: value) {
                add(id)
            } else {
                problems.append(Problem(line: line.number, message: Self.complaint(value, what: "line")))
            }
        }
    }

    private static func complaint(_ value: String, what: String) -> String {
        let shown = value.count > 60 ? String(value.prefix(60)) + "…" : value
        return "the \(what) '\(TerminalText.safe(shown, lineBreak: " "))' is not a tweet id or status URL"
    }

    private static func isSkipped(_ line: String) -> Bool {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty || trimmed.hasPrefix("#")
    }

    /// The lines with their 1-based numbers, without line ends (`\n`, `\r\n`) or a byte-order mark.
    static func lines(_ text: String) -> [(number: Int, text: String)] {
        var body = Substring(text)
        if body.hasPrefix("\u{FEFF}") { body = body.dropFirst() }
        // `\r\n` is one Character in Swift, so it is a separator of its own, not `\n` after a `\r`.
        return body.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .enumerated().map { index, line in (index + 1, String(line)) }
    }

    /// A tweet id: digits (`1460323737035677698`), or a status URL of x.com or twitter.com
    /// (`https://x.com/user/status/1460323737035677698?s=20`, `…/i/web/status/…`, `…/statuses/…`).
    static func id(in value: String) -> TweetID? {
        if !value.isEmpty, value.allSatisfy(\.isASCII), value.count <= 19, let id = TweetID(value) { return id }
        let lowered = value.lowercased()
        guard
            lowered.hasPrefix("http://") || lowered.hasPrefix("https://") || lowered.hasPrefix("x.com/")
                || lowered.hasPrefix("twitter.com/") || lowered.hasPrefix("mobile.twitter.com/")
        else { return nil }
        for marker in ["/status/", "/statuses/"] {
            guard let range = value.range(of: marker) else { continue }
            let digits = value[range.upperBound...].prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, digits.count <= 19 else { return nil }
            let rest = value[range.upperBound...].dropFirst(digits.count)
            guard rest.isEmpty || rest.first == "?" || rest.first == "/" || rest.first == "#" else { return nil }
            return TweetID(digits)
        }
        return nil
    }
}

/// CSV records (RFC 4180: fields separated by commas, quoted with `"`, a quote doubled inside quotes, a quoted field
/// may span lines), each with the number of the line it starts on.
struct CSVRecords: Sequence, IteratorProtocol {
    private var lines: ArraySlice<(number: Int, text: String)>

    init(lines: ArraySlice<(number: Int, text: String)>) { self.lines = lines }

    /// The fields of one line, for a header.
    static func fields(of line: String) -> [String] {
        var records = CSVRecords(lines: [(1, line)])
        return records.next()?.fields ?? []
    }

    mutating func next() -> (line: Int, fields: [String])? {
        while let first = lines.first, first.text.trimmingCharacters(in: .whitespaces).isEmpty {
            lines = lines.dropFirst()
        }
        guard let first = lines.first else { return nil }
        var fields: [String] = []
        var field = ""
        var quoted = false
        var afterQuote = false
        while let line = lines.first {
            lines = lines.dropFirst()
            var characters = line.text.makeIterator()
            while let character = characters.next() {
                if quoted {
                    if character == "\"" {
                        quoted = false
                        afterQuote = true
                    } else {
                        field.append(character)
                    }
                } else if character == "\"" {
                    // `""` inside a quoted field: the quote closed, and opens again with one quote kept.
                    if afterQuote { field.append("\"") }
                    quoted = true
                    afterQuote = false
                } else if character == "," {
                    fields.append(field)
                    field = ""
                    afterQuote = false
                } else {
                    field.append(character)
                    afterQuote = false
                }
            }
            if !quoted { break }
            field.append("\n")
        }
        fields.append(field)
        return (first.number, fields)
    }
}
