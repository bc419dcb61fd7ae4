/// Which names a collection that holds a user's own tweets may take; both stores check imports, hydrations and
/// streams against it before they write anything.
///
/// Three names are taken: `demo` is the generated corpus (searches and exports leave it out, and `drop demo` asks
/// nothing, so a user's tweets put there would be hidden and then lost), `api` holds what X API searches sent (`drop
/// api` also forgets the cached pages), and `all` stands for every collection (`collection all`, `stats all`).
public enum CollectionName {
    /// The names only tweetsh itself gives, lowercased; names compare case-insensitively.
    public static let reserved: [String: String] = [
        "demo": "'demo' is the generated demo corpus, kept apart from your data",
        "api": "'api' holds the tweets X API searches sent",
        "all": "'all' stands for every collection ('collection all', 'stats all')",
    ]

    /// Why `name` cannot name a collection of the user's tweets, or nil when it can. `fromFile` says the name was
    /// taken from the input's file name, so the message says where it came from; `flag` is the command's option that
    /// names the collection instead.
    public static func problem(with name: String, fromFile: Bool = false, flag: String = "--as") -> String? {
        let origin = fromFile ? " (the name comes from the file's name)" : ""
        let fix = "; give the collection a name of its own with \(flag) NAME"
        if name.allSatisfy({ $0 == " " || $0 == "\t" }) { return "a collection needs a name" + origin + fix }
        if let reason = reserved[name.lowercased()] { return reason + origin + fix }
        if name.unicodeScalars.contains(where: isControl) {
            return "a collection's name cannot hold control characters" + origin + fix
        }
        if name.count > 200 { return "a collection's name is at most 200 characters" + origin + fix }
        return nil
    }

    /// C0 and C1 controls, DEL, and the bidirectional controls that reorder what a terminal shows.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || (0x7F...0x9F).contains(value) || (0x202A...0x202E).contains(value)
            || (0x2066...0x2069).contains(value)
    }
}

/// A collection name the stores will not write to (`CollectionName.problem`).
public struct CollectionNameError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong with the name, and what to do.
    public var message: String

    /// Creates the error.
    public init(message: String) { self.message = message }

    /// The message.
    public var description: String { message }

    /// Throws when `given`, or the input's own name when `given` is nil, cannot name a collection; returns the name.
    public static func check(_ given: String?, orNameOf input: ImportInput) throws(CollectionNameError) -> String {
        let name = given ?? input.collectionName
        if let problem = CollectionName.problem(with: name, fromFile: given == nil) {
            throw CollectionNameError(message: problem)
        }
        return name
    }
}
