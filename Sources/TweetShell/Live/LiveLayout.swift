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
        let shownQuery = LiveText.tail(query, width: width - promptWidth - 1)
        var lines = [style.bold(Self.prompt) + shownQuery]
        lines += resultLines(state: state, selection: selection, query: query)
        lines.append(statusLine(state: state, sourceName: sourceName, spinnerFrame: spinnerFrame))
        return (lines.map { LiveText.fit($0, to: width) }, promptWidth + DisplayWidth.of(shownQuery) + 1)
    }

    private func resultLines(state: LiveState, selection: LiveSelection, query: String) -> [String] {
        let rows = resultRows
        var lines: [String] = []
        let items = state.list.items
        if items.isEmpty {
            if let hint = state.hint {
                lines.append(style.dim("  " + hint))
            } else if query.trimmingCharacters(in: .whitespaces).isEmpty {
                lines.append(
                    style.dim(
                        "  type to search; ↑↓ select, PgUp/PgDn page, Enter show, Esc keep results, Ctrl-D discard"))
            } else if state.list.search != nil, !state.isSearching, state.errorMessage == nil {
                lines.append(style.dim("  no matches for '\(state.query)'"))
            }
        } else {
            let renderer = CompactRenderer(width: width - 2, style: style, now: now)
            let end = min(items.count, selection.top + rows)
            let visible = Array(items[selection.top..<end])
            let numberColumns = max(2, String(items.map(\.number).max() ?? 0).count)
            for (offset, item) in visible.enumerated() {
                let selected = selection.top + offset == selection.index
                let line = renderer.line(for: item, numberColumns: numberColumns)
                lines.append(selected ? style.bold(">") + " " + line : "  " + line)
            }
        }
        while lines.count < rows { lines.append("") }
        return Array(lines.prefix(rows))
    }

    /// `source · count · spinner · wait or error · note`, most important first, so a narrow screen keeps the start.
    func statusLine(state: LiveState, sourceName: String, spinnerFrame: Int) -> String {
        var parts = [style.handle(sourceName)]
        let loaded = state.list.items.count
        if let search = state.list.search {
            // Results lag behind typing, so say which query they answer.
            let total = state.matchCount
            let count =
                total > loaded
                ? "\(loaded) of \(total) matches"
                : "\(loaded)\(state.list.nextCursor != nil ? "+" : "") match\(loaded == 1 && state.list.nextCursor == nil ? "" : "es")"
            parts.append(count + " for '\(search.query)'")
        }
        let frame = Self.spinnerFrames[
            ((spinnerFrame % Self.spinnerFrames.count) + Self.spinnerFrames.count) % Self.spinnerFrames.count]
        if state.isSearching { parts.append("\(frame) searching '\(state.query)'…") }
        if state.isLoadingMore { parts.append("\(frame) loading more…") }
        if let wait = state.wait { parts.append(style.warning("waiting: \(wait.reason)")) }
        if let error = state.errorMessage { parts.append(style.error("error: ") + Self.firstLine(error)) }
        // The local store's note only repeats the count; the API's says the answer came from the cache.
        if let note = state.note, state.list.sourceName != SourceKind.local.rawValue { parts.append(style.dim(note)) }
        return parts.joined(separator: style.dim(" · "))
    }

    /// The detail view of one result: its lines fitted to the screen, ending with how to go back.
    public func detail(_ item: ResultItem, timeZone: TimeZone = .current) -> [String] {
        var lines = DetailRenderer(width: width, style: style, timeZone: timeZone).lines(for: item)
        let room = height - 1
        if lines.count > room { lines = Array(lines.prefix(room - 1)) + [style.dim("…")] }
        while lines.count < room { lines.append("") }
        lines.append(style.dim("press any key to return to the results"))
        return lines.map { LiveText.fit($0, to: width) }
    }

    private static func firstLine(_ text: String) -> String {
        String(text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }
}
