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
                for tweet in includes["tweets"]?.array ?? [] { addTweet(tweet, to: &originals) }
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
        if object["id"] != nil, object["text"] != nil, object["id_str"] == nil {
            // `twarc2 flatten` copies a stream line's rules into each tweet, beside `__twarc`.
            originals.twarc = LineBlock.block(
                twarc: object["__twarc"].map(OriginalJSON.init(value:)),
                matchingRules: object["matching_rules"].map(OriginalJSON.init(value:)))
            unflatten(root, into: &originals)
        } else if object["id"] != nil, object["username"] != nil {
            addUser(root, to: &originals)
        }
        return originals
    }

    // MARK: Pages, by byte slices

    private struct NotAPage: Error {}

    /// Slices a page without a tree; throws for anything that is not a page with `data`.
    private static func page(_ bytes: UnsafeBufferPointer<UInt8>) throws -> Originals {
        var scanner = JSONParser.Scanner(bytes: bytes)
        var originals = Originals()
        var sawData = false
        var matchingRules: OriginalJSON?
        try scanner.members { scanner, key in
            if key == "data" {
                sawData = true
                guard scanner.peek() == UInt8(ascii: "[") else { throw NotAPage() }
                try scanner.elements { scanner in
                    let (slice, id) = try keyedSlice(&scanner, key: "id")
                    if let id = id.flatMap(SnowflakeID.init) { originals.tweets[id] = slice }
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
                            if let id = id.flatMap(SnowflakeID.init) { originals.tweets[id] = slice }
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

    /// Splits a flattened tweet into the API objects it was made of (the inverse of `Flattening.flatten`).
    static func unflatten(_ value: JSONValue, into originals: inout Originals) {
        guard case .object(var tweet) = value, let id = tweet["id"]?.snowflake else { return }
        var kept: [(key: String, value: JSONValue)] = []
        for member in tweet.members {
            switch member.key {
            case Flattening.authorKey, Flattening.replyUserKey:
                addUser(member.value, to: &originals)
            case "__twarc", "matching_rules":
                continue
            case "attachments":
                guard case .object(let attachments) = member.value else {
                    kept.append(member)
                    continue
                }
                var own: [(key: String, value: JSONValue)] = []
                for item in attachments.members {
                    if item.key == "media" {
                        for media in item.value.array ?? [] { addKeyed(media, "media_key", to: &originals.media) }
                    } else if item.key == "poll" {
                        addKeyed(item.value, "id", to: &originals.polls)
                    } else {
                        own.append(item)
                    }
                }
                kept.append((member.key, .object(JSONObject(own))))
            case "geo":
                guard case .object(let geo) = member.value else {
                    kept.append(member)
                    continue
                }
                var own: [(key: String, value: JSONValue)] = []
                for item in geo.members {
                    if item.key == "place" {
                        addKeyed(item.value, "id", to: &originals.places)
                    } else {
                        own.append(item)
                    }
                }
                kept.append((member.key, .object(JSONObject(own))))
            case "referenced_tweets":
                guard case .array(let references) = member.value else {
                    kept.append(member)
                    continue
                }
                var own: [JSONValue] = []
                for reference in references {
                    guard case .object(let object) = reference else {
                        own.append(reference)
                        continue
                    }
                    if object["text"] != nil {
                        // The expanded reference is the referenced tweet plus the reference's `type`.
                        let expanded = JSONObject(object.members.filter { $0.key != "type" })
                        unflatten(.object(expanded), into: &originals)
                    }
                    var link: [(key: String, value: JSONValue)] = []
                    if let type = object["type"] { link.append(("type", type)) }
                    if let referenced = object["id"] { link.append(("id", referenced)) }
                    own.append(.object(JSONObject(link)))
                }
                kept.append((member.key, .array(own)))
            default:
                kept.append(member)
            }
        }
        tweet.members = kept
        originals.tweets[id] = OriginalJSON(value: .object(tweet))
    }
}
