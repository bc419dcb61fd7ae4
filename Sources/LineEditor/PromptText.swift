/// Marks the escape sequences in a prompt so libedit leaves them out of its cursor arithmetic (EL_PROMPT_ESC).
///
/// Callers write prompts with ordinary ANSI escapes (`"\u{1B}[32mtweetsh\u{1B}[0m> "`); each CSI, OSC or two-byte
/// escape is wrapped in `delimiter`, which libedit treats as "start/stop of invisible text".
enum PromptText {
    static let delimiter: Unicode.Scalar = "\u{01}"

    static func marked(_ prompt: String) -> String {
        let scalars = Array(prompt.unicodeScalars.filter { $0 != delimiter })
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            guard scalars[index] == "\u{1B}" else {
                result.append(scalars[index])
                index += 1
                continue
            }
            let end = sequenceEnd(scalars, from: index)
            result.append(delimiter)
            result.append(contentsOf: scalars[index..<end])
            result.append(delimiter)
            index = end
        }
        return String(result)
    }

    /// The prompt as a terminal would show it, without escapes; what a piped reader would print if it printed prompts.
    static func visible(_ prompt: String) -> String {
        let scalars = Array(prompt.unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            if scalars[index] == "\u{1B}" {
                index = sequenceEnd(scalars, from: index)
            } else {
                if scalars[index] != delimiter { result.append(scalars[index]) }
                index += 1
            }
        }
        return String(result)
    }

    /// The index just past the escape sequence starting at `start` (which holds ESC).
    private static func sequenceEnd(_ scalars: [Unicode.Scalar], from start: Int) -> Int {
        var index = start + 1
        guard index < scalars.count else { return index }
        switch scalars[index] {
        case "[":
            // CSI: parameter and intermediate bytes, then one final byte in @...~.
            index += 1
            while index < scalars.count, !(0x40...0x7E).contains(scalars[index].value) { index += 1 }
            return min(index + 1, scalars.count)
        case "]":
            // OSC: up to BEL or ESC \.
            index += 1
            while index < scalars.count {
                if scalars[index] == "\u{07}" { return index + 1 }
                if scalars[index] == "\u{1B}", index + 1 < scalars.count, scalars[index + 1] == "\\" {
                    return index + 2
                }
                index += 1
            }
            return index
        default:
            return index + 1
        }
    }
}
