/// Which result is selected and which slice of the list is on screen.
///
/// Kept apart from drawing so the arithmetic (clamping, paging, keeping the selection visible) is tested on its own.
public struct LiveSelection: Equatable, Sendable {
    /// The selected item, 0-based; 0 when the list is empty.
    public private(set) var index = 0
    /// The first item on screen, 0-based.
    public private(set) var top = 0

    /// Nothing selected yet: the top of the list.
    public init() {}

    /// Moves by `delta` items (negative is up) within `count` items, scrolling so the selection stays within `rows`.
    public mutating func move(by delta: Int, count: Int, rows: Int) {
        index += delta
        clamp(count: count, rows: rows)
    }

    /// Moves by whole screens, keeping the selection's place on the screen as far as the ends allow.
    public mutating func page(by pages: Int, count: Int, rows: Int) {
        let rows = max(1, rows)
        let offset = index - top
        index += pages * rows
        top += pages * rows
        clamp(count: count, rows: rows)
        if index - top != offset, count > rows {
            top = min(max(0, index - offset), max(0, count - rows))
            clamp(count: count, rows: rows)
        }
    }

    /// Jumps to the first (`toEnd` false) or last item.
    public mutating func jump(toEnd: Bool, count: Int, rows: Int) {
        index = toEnd ? count - 1 : 0
        clamp(count: count, rows: rows)
    }

    /// Brings the selection back into the list and onto the screen after the list or the screen changed size.
    public mutating func clamp(count: Int, rows: Int) {
        let rows = max(1, rows)
        index = min(max(0, index), max(0, count - 1))
        top = min(max(0, top), max(0, count - rows))
        if index < top { top = index }
        if index >= top + rows { top = index - rows + 1 }
    }

    /// Whether the selection sits on the last loaded item: time to load more.
    public func isAtEnd(count: Int) -> Bool {
        count > 0 && index >= count - 1
    }
}
