/// A key the live screen reacts to.
public enum LiveKey: Equatable, Sendable {
    /// Text to add to the query (one grapheme cluster, or several when pasted).
    case text(String)
    /// Backspace: remove the last character of the query.
    case backspace
    /// Ctrl-U: clear the query.
    case clearQuery
    /// Ctrl-W: remove the last word of the query.
    case deleteWord
    /// Enter.
    case enter
    /// Esc on its own.
    case escape
    /// Ctrl-C.
    case interrupt
    /// Ctrl-D.
    case endOfInput
    /// Ctrl-Z: raw mode turns off the terminal's own signal keys, so the screen raises the stop itself.
    case suspend
    /// Up arrow or Ctrl-P.
    case up
    /// Down arrow or Ctrl-N.
    case down
    /// Page Up.
    case pageUp
    /// Page Down.
    case pageDown
    /// Home.
    case home
    /// End.
    case end
    /// Any other key or sequence: it still ends the detail view ("any key").
    case other
}

/// Turns the bytes a raw-mode terminal sends into keys.
///
/// Bytes arrive in arbitrary pieces: an escape sequence or a UTF-8 character may be split across reads, so an
/// incomplete tail is kept for the next `feed`. A lone ESC is ambiguous until the terminal has had time to send the rest
/// of a sequence; the caller waits briefly and then calls `flush`, which turns it into `.escape`.
public struct LiveKeyDecoder: Sendable {
    private var pending: [UInt8] = []

    /// Creates a decoder with nothing pending.
    public init() {}

    /// Whether a lone ESC (or a partial sequence) is waiting for `flush`.
    public var hasPending: Bool { !pending.isEmpty }

    /// The keys in `bytes`, together with anything left from earlier calls.
    public mutating func feed<C: Collection>(_ bytes: C) -> [LiveKey] where C.Element == UInt8 {
        pending.append(contentsOf: bytes)
        var keys: [LiveKey] = []
        var index = 0
        var text: [UInt8] = []
        func flushText() {
            if !text.isEmpty {
                keys.append(.text(String(decoding: text, as: UTF8.self)))
                text.removeAll()
            }
        }
        while index < pending.count {
            let byte = pending[index]
            if byte >= 0x20 && byte != 0x7F {
                let length = Self.utf8Length(byte)
                guard index + length <= pending.count else { break }  // the rest of the character comes later
                text.append(contentsOf: pending[index..<index + length])
                index += length
                continue
            }
            flushText()
            if byte == 0x1B {
                guard let (key, length) = Self.escapeSequence(pending[(index + 1)...]) else { break }
                keys.append(key)
                index += 1 + length
                continue
            }
            keys.append(Self.control(byte))
            index += 1
        }
        flushText()
        pending.removeFirst(index)
        return keys
    }

    /// Called when no more bytes came shortly after a lone ESC: the user pressed Esc.
    public mutating func flush() -> [LiveKey] {
        guard !pending.isEmpty else { return [] }
        let wasEscape = pending.first == 0x1B
        pending.removeAll()
        return [wasEscape ? .escape : .other]
    }

    private static func control(_ byte: UInt8) -> LiveKey {
        switch byte {
        case 0x7F, 0x08: return .backspace
        case 0x0D, 0x0A: return .enter
        case 0x03: return .interrupt
        case 0x04: return .endOfInput
        case 0x1A: return .suspend
        case 0x15: return .clearQuery
        case 0x17: return .deleteWord
        case 0x10: return .up
        case 0x0E: return .down
        default: return .other
        }
    }

    /// Bytes a UTF-8 character starting with `byte` takes; a stray continuation byte counts as one.
    private static func utf8Length(_ byte: UInt8) -> Int {
        switch byte {
        case 0xF0...0xF7: return 4
        case 0xE0...0xEF: return 3
        case 0xC0...0xDF: return 2
        default: return 1
        }
    }

    /// The key for the bytes after an ESC and how many of them it used; nil when the sequence is not complete yet.
    private static func escapeSequence(_ rest: ArraySlice<UInt8>) -> (LiveKey, Int)? {
        guard let introducer = rest.first else { return nil }
        switch introducer {
        case UInt8(ascii: "["):
            // CSI: parameter bytes 0x30–0x3F, intermediates 0x20–0x2F, then one final byte 0x40–0x7E.
            var length = 1
            var parameters = ""
            for byte in rest.dropFirst() {
                length += 1
                if (0x40...0x7E).contains(byte) {
                    return (csiKey(final: byte, parameters: parameters), length)
                }
                guard (0x20...0x3F).contains(byte) else { return (.other, length) }
                parameters.append(Character(Unicode.Scalar(byte)))
            }
            return nil
        case UInt8(ascii: "O"):
            guard rest.count >= 2 else { return nil }
            let final = rest[rest.index(after: rest.startIndex)]
            return (csiKey(final: final, parameters: ""), 2)
        case 0x1B:
            // ESC ESC: the first is a lone Esc; leave the second for the next round.
            return (.escape, 0)
        default:
            // Alt+key sends ESC then the key; treat it as Esc followed by that key.
            return (.escape, 0)
        }
    }

    private static func csiKey(final: UInt8, parameters: String) -> LiveKey {
        switch (final, parameters) {
        case (UInt8(ascii: "A"), _): return .up
        case (UInt8(ascii: "B"), _): return .down
        case (UInt8(ascii: "H"), _), (UInt8(ascii: "~"), "1"), (UInt8(ascii: "~"), "7"): return .home
        case (UInt8(ascii: "F"), _), (UInt8(ascii: "~"), "4"), (UInt8(ascii: "~"), "8"): return .end
        case (UInt8(ascii: "~"), "5"): return .pageUp
        case (UInt8(ascii: "~"), "6"): return .pageDown
        default: return .other
        }
    }
}
