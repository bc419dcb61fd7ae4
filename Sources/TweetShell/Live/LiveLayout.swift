import Foundation

/// Lays out the live screen as lines, without touching the terminal: the query line at the top, the results below it,
/// and a status line at the bottom with the source, the match count, a spinner while searching, and any error or wait.
public struct LiveLayout: Sendable {
    /// Terminal columns.
    public var width: Int
    /// Terminal rows.
    public var height: Int
    /// Colour on or off.
    public var style: Style
    /// The moment result ages are measured from.
    public var now: Date

    /// The prompt before the query.
    public static let prompt = "live> "
    /// Spinner frames, one per redraw while busy.
    public static let spinnerFrames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    /// Creates a layout for a screen of `width` × `height`.
    public init(width: Int, height: Int, style: Style, now: Date = Date()) {
        self.width = max(20, width)
        self.height = max(3, height)
        self.style = style
        self.now = now
    }

    /// Rows available for results: all but the query line and the status line.
    public var resultRows: Int { height - 2 }

    /// The screen: exactly `height` lines, and the column (1-based) where the cursor belongs on the query line.
    public func screen(
        query: String, state: LiveState, selection: LiveSelection, sourceName: String,
        spinnerFrame: Int
    ) -> (lines: [String], cursorColumn: Int) {
        let promptWidth = DisplayWidth.of(Self.prompt)
        let shownQuery = LiveText.tail(TerminalText.safe(query, lineBreak: " "), width: width - promptWidth - 1)
        var lines = [style.bold(Self.prompt) + shownQuery]
        var status = statusLine(state: state, sourceName: sourceName, spinnerFrame: spinnerFrame)
        var messages: [String] = []
        if LiveText.visibleWidth(status) > width {
            // The wait's countdown and the error's cause come last in their sentences: rather than cut them, give them
            // lines of their own above the status line, taken from the results.
            status = statusLine(state: state, sourceName: sourceName, spinnerFrame: spinnerFrame, withMessages: false)
            messages = Array(messageLines(state: state).prefix(max(0, resultRows - 1)))
        }
        lines += resultLines(state: state, selection: selection, query: query, rows: resultRows - messages.count)
        lines += messages
        lines.append(status)
        return (
            lines.map { TerminalText.balanced(LiveText.fit($0, to: width)) },
            promptWidth + DisplayWidth.of(shownQuery) + 1
        )
    }

    /// The wait and the error, each wrapped to the width, at most three lines each.
    private func messageLines(state: LiveState) -> [String] {
        var lines: [String] = []
        if let wait = state.wait {
            lines += DisplayWidth.wrap("waiting: " + TerminalText.safe(wait.reason, lineBreak: " "), width: width)
                .prefix(3).map { style.warning($0) }
        }
        if let error = state.errorMessage {
            let wrapped = DisplayWidth.wrap("error: " + TerminalText.safe(Self.firstLine(error)), width: width)
            lines += wrapped.prefix(3).enumerated().map { index, line in
                index == 0 ? style.error("error: ") + String(line.dropFirst("error: ".count)) : line
            }
        }
        return lines
    }

    private func resultLines(state: LiveState, selection: LiveSelection, query: String, rows: Int) -> [String] {
        var lines: [String] = []
        let items = state.list.items
        if items.isEmpty {
            if let hint = state.hint {
                lines.append(style.dim("  " + TerminalText.safe(hint, lineBreak: " ")))
            } else if query.trimmingCharacters(in: .whitespaces).isEmpty {
                lines.append(
                    style.dim(
                        "  type to search; ↑↓ select, PgUp/PgDn page, Enter show, Esc keep results, Ctrl-D discard"))
            } else if state.list.search != nil, !state.isSearching, state.errorMessage == nil {
                lines.append(style.dim("  no matches for '\(TerminalText.safe(state.query, lineBreak: " "))'"))
            }
        } else {
            let renderer = CompactRenderer(width: width - 2, style: style, now: now)
            // Rows given to messages must not hide the selection.
            let top = max(selection.top, selection.index - rows + 1)
            let end = min(items.count, top + rows)
            let visible = Array(items[min(top, end)..<end])
            let numberColumns = max(2, String(items.map(\.number).max() ?? 0).count)
            for (offset, item) in visible.enumerated() {
                let selected = top + offset == selection.index
                let line = renderer.line(for: item, numberColumns: numberColumns)
                lines.append(selected ? style.bold(">") + " " + line : "  " + line)
            }
        }
        while lines.count < rows { lines.append("") }
        return Array(lines.prefix(rows))
    }

    /// `source · count · spinner · wait or error · note`, most important first, so a narrow screen keeps the start.
    func statusLine(state: LiveState, sourceName: String, spinnerFrame: Int, withMessages: Bool = true) -> String {
        var parts = [style.handle(sourceName)]
        let loaded = state.list.items.count
        if let search = state.list.search {
            // Results lag behind typing, so say which query they answer.
            let total = state.matchCount
            let count =
                total > loaded
                ? "\(loaded) of \(total) matches"
                : "\(loaded)\(state.list.nextCursor != nil ? "+" : "") match\(loaded == 1 && state.list.nextCursor == nil ? "" : "es")"
            parts.append(count + " for '\(TerminalText.safe(search.query, lineBreak: " "))'")
        }
        if let volume = state.volume, volume.contains(where: { $0 > 0 }) {
            // The last 30 days of the query's volume; the live screen draws in Unicode already (its spinner).
            parts.append(style.tag(ChartGlyphs(unicode: true).sparkline(Array(volume.suffix(30)))) + " by day")
        }
        let frame = Self.spinnerFrames[
            ((spinnerFrame % Self.spinnerFrames.count) + Self.spinnerFrames.count) % Self.spinnerFrames.count]
        if state.isSearching { parts.append("\(frame) searching '\(TerminalText.safe(state.query, lineBreak: " "))'…") }
        if state.isLoadingMore { parts.append("\(frame) loading more…") }
        if withMessages, let wait = state.wait {
            parts.append(style.warning("waiting: " + TerminalText.safe(wait.reason, lineBreak: " ")))
        }
        if withMessages, let error = state.errorMessage {
            parts.append(style.error("error: ") + TerminalText.safe(Self.firstLine(error), lineBreak: " "))
        }
        // The local store's note only repeats the count; the API's says the answer came from the cache.
        if let note = state.note, state.list.sourceName != SourceKind.local.rawValue {
            parts.append(style.dim(TerminalText.safe(note, lineBreak: " ")))
        }
        return parts.joined(separator: style.dim(" · "))
    }

    /// The detail view of one result: its lines fitted to the screen, ending with how to go back.
    public func detail(_ item: ResultItem, timeZone: TimeZone = .current) -> [String] {
        var lines = DetailRenderer(width: width, style: style, timeZone: timeZone).lines(for: item)
        let room = height - 1
        if lines.count > room { lines = Array(lines.prefix(room - 1)) + [style.dim("…")] }
        while lines.count < room { lines.append("") }
        lines.append(style.dim("press any key to return to the results"))
        return lines.map { TerminalText.balanced(LiveText.fit($0, to: width)) }
    }

    private static func firstLine(_ text: String) -> String {
        String(text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }
}
