import Foundation

/// Finds the original JSON of every object in one collection line or API body, beside the decoders that read the
/// models from it.
///
/// A page (`data`, `includes`, `meta`, `__twarc`) is cut into byte slices without building a tree. A flattened
/// tweet (`twarc2 flatten`) is taken apart again: the embedded author, reply user, media, poll, place and expanded
/// references become objects of their own, and the tweet keeps only its own keys, so the store holds every object
/// once in the API's shape and exports can flatten it again (see `Flattening`).
public enum OriginalsExtractor {
    /// The originals in one line or body; empty for shapes that are not API v2 JSON (v1.1, archives).
    public static func extract(_ bytes: UnsafeBufferPointer<UInt8>) -> Originals {
        if let originals = try? page(bytes) { return originals }
        if let originals = flattenedOrUser(bytes) { return originals }
        guard let root = try? JSONParser.parse(bytes) else { return Originals() }
        return extract(value: root)
    }

    /// The originals of an already parsed line or body.
    public static func extract(value root: JSONValue) -> Originals {
        guard case .object(let object) = root else { return Originals() }
        var originals = Originals()
        if let data = object["data"] {
            switch data {
            case .array(let items): for item in items { addTweet(item, to: &originals) }
            case .object(let single):
                if single["text"] == nil, single["username"] != nil {
                    addUser(data, to: &originals)
                } else {
                    addTweet(data, to: &originals)
                }
            default: break
            }
            if let includes = object["includes"]?.object {
                for user in includes["users"]?.array ?? [] { addUser(user, to: &originals) }
                // One original per id: a result's own (added above), when the page also includes a copy of it.
                for tweet in includes["tweets"]?.array ?? []
                where tweet["id"]?.snowflake.map({ originals.tweets[$0] == nil }) ?? false {
                    addTweet(tweet, to: &originals)
                }
                for media in includes["media"]?.array ?? [] { addKeyed(media, "media_key", to: &originals.media) }
                for place in includes["places"]?.array ?? [] { addKeyed(place, "id", to: &originals.places) }
                for poll in includes["polls"]?.array ?? [] { addKeyed(poll, "id", to: &originals.polls) }
            }
            if let meta = object["meta"] { originals.meta = OriginalJSON(value: meta) }
            originals.twarc = LineBlock.block(
                twarc: object["__twarc"].map(OriginalJSON.init(value:)),
                matchingRules: object["matching_rules"].map(OriginalJSON.init(value:)))
            return originals
        }
        // A flattened tweet or a lone user given as a tree is written out and taken apart by its bytes, as lines are
        // (`flattenedOrUser`); the tree has already lost what its numbers and escapes looked like.
        // Other shapes (v1.1, archives) keep no originals.
        let flattened = object["text"] != nil && object["id_str"] == nil
        guard object["id"] != nil, flattened || object["username"] != nil else { return originals }
        let text = OriginalJSON(value: root).bytes
        return text.withUnsafeBufferPointer { flattenedOrUser($0) } ?? originals
    }

    // MARK: Pages, by byte slices

    private struct NotAPage: Error {}

    /// Slices a page without a tree; throws for anything that is not a page with `data`.
    static func page(_ bytes: UnsafeBufferPointer<UInt8>) throws -> Originals {
        var scanner = JSONParser.Scanner(bytes: bytes)
        var originals = Originals()
        var sawData = false
        /// The results' ids, whose originals an included copy must not replace.
        var results = Set<TweetID>()
        var matchingRules: OriginalJSON?
        try scanner.members { scanner, key in
            if key == "data" {
                sawData = true
                if scanner.peek() == UInt8(ascii: "{") {
                    // One object, as a lookup by id answers: a user when it has a username and no text.
                    let start = scanner.mark
                    var id: String?
                    var text = false
                    var username = false
                    try scanner.members { scanner, key in
                        if key == "id", id == nil {
                            id = try scanner.readString()
                        } else {
                            text = text || key == "text"
                            username = username || key == "username"
                            try scanner.skipValue()
                        }
                    }
                    guard let id = id.flatMap(SnowflakeID.init) else { return }
                    if !text && username {
                        originals.users[id] = scanner.original(since: start)
                    } else {
                        originals.tweets[id] = scanner.original(since: start)
                        results.insert(id)
                    }
                    return
                }
                guard scanner.peek() == UInt8(ascii: "[") else { throw NotAPage() }
                try scanner.elements { scanner in
                    let (slice, id) = try keyedSlice(&scanner, key: "id")
                    if let id = id.flatMap(SnowflakeID.init) {
                        originals.tweets[id] = slice
                        results.insert(id)
                    }
                }
            } else if key == "includes" {
                try scanner.members { scanner, key in
                    if key == "users" {
                        try scanner.elements { scanner in
                            let (slice, id) = try keyedSlice(&scanner, key: "id")
                            if let id = id.flatMap(SnowflakeID.init) { originals.users[id] = slice }
                        }
                    } else if key == "tweets" {
                        try scanner.elements { scanner in
                            let (slice, id) = try keyedSlice(&scanner, key: "id")
                            // One original per id: a result's own, when the page also includes a copy of it.
                            if let id = id.flatMap(SnowflakeID.init), !results.contains(id) {
                                originals.tweets[id] = slice
                            }
                        }
                    } else if key == "media" || key == "places" || key == "polls" {
                        let isMedia = key == "media"
                        let isPlace = key == "places"
                        try scanner.elements { scanner in
                            let (slice, id) = try keyedSlice(&scanner, key: isMedia ? "media_key" : "id")
                            guard let id else { return }
                            if isMedia {
                                originals.media[id] = slice
                            } else if isPlace {
                                originals.places[id] = slice
                            } else {
                                originals.polls[id] = slice
                            }
                        }
                    } else {
                        try scanner.skipValue()
                    }
                }
            } else if key == "meta" || key == "__twarc" || key == "matching_rules" {
                let start = scanner.mark
                try scanner.skipValue()
                let slice = scanner.original(since: start)
                if key == "meta" {
                    originals.meta = slice
                } else if key == "__twarc" {
                    originals.twarc = slice
                } else {
                    matchingRules = slice
                }
            } else {
                try scanner.skipValue()
            }
        }
        guard sawData else { throw NotAPage() }
        if matchingRules != nil {
            originals.twarc = LineBlock.block(twarc: originals.twarc, matchingRules: matchingRules)
        }
        return originals
    }

    /// The object at the scanner as compact text, and its string member `key` (an id or media key).
    static func keyedSlice(_ scanner: inout JSONParser.Scanner, key wanted: StaticString) throws -> (
        OriginalJSON, String?
    ) {
        let start = scanner.mark
        var found: String?
        try scanner.members { scanner, key in
            if key == wanted, found == nil {
                found = try scanner.readString()
            } else {
                try scanner.skipValue()
            }
        }
        return (scanner.original(since: start), found)
    }

    // MARK: Trees

    private static func addTweet(_ value: JSONValue, to originals: inout Originals) {
        guard let id = value["id"]?.snowflake else { return }
        originals.tweets[id] = OriginalJSON(value: value)
    }

    private static func addUser(_ value: JSONValue, to originals: inout Originals) {
        guard let id = value["id"]?.snowflake else { return }
        originals.users[id] = OriginalJSON(value: value)
    }

    private static func addKeyed(_ value: JSONValue, _ key: String, to table: inout [String: OriginalJSON]) {
        guard let id = value[key]?.string else { return }
        table[id] = OriginalJSON(value: value)
    }
}
