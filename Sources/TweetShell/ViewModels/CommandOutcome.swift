/// A value sent into the view model tagged with the command that sent it, so its outcome can be matched.
public struct Tagged<Value: Sendable>: Sendable {
    /// The command's id.
    public var id: Int
    /// The payload.
    public var value: Value

    /// Tags a value.
    public init(id: Int, value: Value) {
        self.id = id
        self.value = value
    }
}

/// How one command sent to the search view model ended.
public enum CommandOutcome: Equatable, Sendable {
    /// Results arrived: `added` are the newly numbered items, `list` the whole list now.
    case results(id: Int, added: [ResultItem], list: ResultList, note: String?, warnings: [String])
    /// The command failed; the message says what to do.
    case failed(id: Int, message: String)
    /// Ctrl-C, or a newer search, stopped it.
    case cancelled(id: Int)

    /// The command this outcome belongs to.
    public var id: Int {
        switch self {
        case .results(let id, _, _, _, _), .failed(let id, _), .cancelled(let id): return id
        }
    }
}
