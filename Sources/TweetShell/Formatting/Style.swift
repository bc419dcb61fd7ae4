/// ANSI styling that can be switched off as a whole: colour only on a TTY, never with NO_COLOR, unless `--color` says.
public struct Style: Sendable, Equatable {
    /// Whether escape codes are written at all.
    public var enabled: Bool

    /// Creates a style.
    public init(enabled: Bool) {
        self.enabled = enabled
    }

    /// Decides colour from the `--color` choice, NO_COLOR, and whether output is a terminal.
    public static func resolve(choice: String?, environment: [String: String], isTerminal: Bool) -> Style {
        switch choice?.lowercased() {
        case "always": return Style(enabled: true)
        case "never": return Style(enabled: false)
        default:
            if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return Style(enabled: false) }
            return Style(enabled: isTerminal && environment["TERM"] != "dumb")
        }
    }

    private func wrap(_ text: String, _ code: String) -> String {
        enabled && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    /// Bold text.
    public func bold(_ text: String) -> String { wrap(text, "1") }
    /// Dimmed text, for secondary details.
    public func dim(_ text: String) -> String { wrap(text, "2") }
    /// Handles.
    public func handle(_ text: String) -> String { wrap(text, "36") }
    /// Result numbers.
    public func number(_ text: String) -> String { wrap(text, "33") }
    /// Errors.
    public func error(_ text: String) -> String { wrap(text, "31") }
    /// Warnings.
    public func warning(_ text: String) -> String { wrap(text, "35") }
    /// Links.
    public func link(_ text: String) -> String { wrap(text, "4") }
    /// Hashtags.
    public func tag(_ text: String) -> String { wrap(text, "34") }
}
