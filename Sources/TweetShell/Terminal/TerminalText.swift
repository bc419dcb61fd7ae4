/// The one gate between text tweetsh did not write (tweets, names, API messages, typed lines) and the terminal.
///
/// Anyone who can post a tweet would otherwise control the reader's terminal: `ESC ] 0;… BEL` renames the window,
/// `ESC [ 31m` colours what follows, a carriage return or backspaces overwrite what was printed, and a right-to-left
/// override reorders the rest of the line. So, scalar by scalar:
///
/// - C0 controls and DEL become their visible control pictures (`␛`, `␍`, `␈`, `␇`, `␡`, …); C1 controls (which some
///   terminals obey as ESC plus a letter) become `␛` and that letter, so `U+009B` reads `␛[`;
/// - line breaks (`\n`, `\r\n`, NEL, U+2028, U+2029) become `\n`, or whatever the layout asks for, and a tab a space;
///   a carriage return on its own is shown, never obeyed;
/// - bidi embeddings and overrides (U+202A–U+202E) are dropped, and isolates (U+2066–U+2069) are kept only balanced:
///   a stray PDI is dropped and an open isolate is closed at the end of each line, so nothing can reorder the text
///   after it.
///
/// Zero-width joiners, variation selectors and combining marks stay: they draw nothing on their own. Data formats
/// (JSON lines, CSV, exports) keep the exact text when piped; on a terminal they go through `jsonForTerminal` and
/// `csvForTerminal`.
public enum TerminalText {
    /// `text` safe to print. Line breaks become `\n` when `lineBreak` is nil, else `lineBreak` (runs of breaks and the
    /// spaces around them become one), so a field meant for one line stays on one line.
    public static func safe(_ text: String, lineBreak: String? = nil) -> String {
        guard needsWork(text) else { return text }
        var result = String.UnicodeScalarView()
        var isolates: [Unicode.Scalar] = []
        var previousWasCR = false
        var pendingBreak = false

        func closeIsolates() {
            for _ in isolates { result.append(pdi) }
        }
        func emitBreak() {
            closeIsolates()
            if lineBreak != nil {
                while result.last == " " { result.removeLast() }
                if !result.isEmpty { pendingBreak = true }
            } else {
                result.append("\n")
            }
            // The next line is isolated as this one was.
            if lineBreak == nil { result.append(contentsOf: isolates) }
        }
        func append(_ scalar: Unicode.Scalar) {
            if pendingBreak, let lineBreak {
                if scalar == " " { return }  // spaces after a break fold into it
                pendingBreak = false
                result.append(contentsOf: lineBreak.unicodeScalars)
                result.append(contentsOf: isolates)
            }
            result.append(scalar)
        }

        for scalar in text.unicodeScalars {
            let value = scalar.value
            if previousWasCR {
                previousWasCR = false
                if value == 0x0A {
                    emitBreak()
                    continue
                }
                append("␍")
            }
            switch value {
            case 0x0A, 0x85, 0x2028, 0x2029:
                emitBreak()
            case 0x0D:
                previousWasCR = true  // CR LF is one line break; a CR alone is shown
            case 0x09:
                append(" ")
            case 0x00..<0x20:
                append(Unicode.Scalar(0x2400 + value)!)
            case 0x7F:
                append("␡")
            case 0x80..<0xA0:
                append("␛")
                append(Unicode.Scalar(value - 0x40)!)
            case 0x202A...0x202E:
                continue  // embeddings and overrides: never passed on
            case 0x2066...0x2068:
                isolates.append(scalar)
                append(scalar)
            case 0x2069:
                guard !isolates.isEmpty else { continue }
                isolates.removeLast()
                append(scalar)
            default:
                append(scalar)
            }
        }
        if previousWasCR { append("␍") }
        // After a trailing break folded into `lineBreak`, the isolates are closed already and were never reopened.
        if !pendingBreak { closeIsolates() }
        return String(result)
    }

    /// `line` (already safe) with its isolates balanced again after it was cut or wrapped: a PDI that closes nothing
    /// is dropped, and isolates left open are closed at the end.
    public static func balanced(_ line: String) -> String {
        guard line.utf8.contains(0xE2) else { return line }
        var result = String.UnicodeScalarView()
        var depth = 0
        for scalar in line.unicodeScalars {
            switch scalar.value {
            case 0x2066...0x2068: depth += 1
            case 0x2069:
                guard depth > 0 else { continue }
                depth -= 1
            default: break
            }
            result.append(scalar)
        }
        for _ in 0..<depth { result.append(pdi) }
        return String(result)
    }

    /// Whether any scalar of `text` needs changing: a control, DEL, a C1 control (UTF-8 lead byte 0xC2), or one of the
    /// general-punctuation line separators and bidi controls (lead byte 0xE2). Most texts have none, and are returned
    /// without being rebuilt.
    static func needsWork(_ text: String) -> Bool {
        var utf8 = text.utf8.makeIterator()
        while let byte = utf8.next() {
            if byte < 0x20 || byte == 0x7F { return true }
            if byte == 0xC2, let next = utf8.next(), next < 0xA0 { return true }
            if byte == 0xE2, let second = utf8.next(), let third = utf8.next() {
                if second == 0x80, (0xA8...0xAE).contains(third) { return true }
                if second == 0x81, (0xA6...0xA9).contains(third) { return true }
            }
        }
        return false
    }

    private static let pdi: Unicode.Scalar = "\u{2069}"
}
