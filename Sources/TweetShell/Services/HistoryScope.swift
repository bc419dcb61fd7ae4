/// Where a recorded search ran: its source, and for the local store the collection it stayed inside.
///
/// Both stores' search histories key a search by its query and a source string. A local search inside a collection
/// (`--in NAME`, or the `collection` setting) is recorded under `local:NAME`, so `again` and `more` after a restart run
/// it in the same collection instead of across every one, and the same words searched in two collections are two
/// searches. Rows recorded as `local` or `x` read as they always did.
struct HistoryScope: Equatable {
    /// The source searched.
    var source: SourceKind
    /// The local collection it stayed inside; nil for every collection, and always for X.
    var collection: String?

    private static let localPrefix = SourceKind.local.rawValue + ":"

    /// The scope of a search on `source`; a collection counts only for the local store.
    init(source: SourceKind, collection: String?) {
        self.source = source
        self.collection = source == .local ? collection : nil
    }

    /// The scope a history row recorded; nil for a source this tweetsh does not know.
    init?(recorded: String) {
        if recorded.hasPrefix(Self.localPrefix), recorded.count > Self.localPrefix.count {
            self.init(source: .local, collection: String(recorded.dropFirst(Self.localPrefix.count)))
            return
        }
        guard let source = SourceKind(rawValue: recorded) else { return nil }
        self.init(source: source, collection: nil)
    }

    /// The source string the history records.
    var recorded: String {
        collection.map { Self.localPrefix + $0 } ?? source.rawValue
    }

    /// How `history searches` and notes name it: `local`, `local, in alpha`, `x`.
    var label: String {
        collection.map { "\(source.rawValue), in \($0)" } ?? source.rawValue
    }
}
