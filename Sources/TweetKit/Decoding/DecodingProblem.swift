/// Why some input could not be read as tweets: what was wrong, and where when it is known.
///
/// Importers report it with the line number they are on; the message alone should tell a person what to fix.
public struct DecodingProblem: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong, in words.
    public var message: String
    /// The 1-based column (byte) within the line or file where the JSON broke, when the problem is a syntax error.
    public var column: Int?

    /// Creates a problem report.
    public init(_ message: String, column: Int? = nil) {
        self.message = message
        self.column = column
    }

    /// Wraps a JSON syntax error, keeping its position as a column.
    init(_ error: JSONParseError, context: String = "invalid JSON") {
        self.message = "\(context): \(error.message)"
        self.column = error.offset + 1
    }

    /// The message with its column, as shown to people.
    public var description: String {
        guard let column else { return message }
        return "\(message) (column \(column))"
    }
}
