/// The parts of a twarc2 line a CSV row needs besides the tweet: its `includes`, indexed the way `twarc2 flatten`
/// looks objects up, and the line's `__twarc` and `matching_rules` blocks, which every row of the line repeats.
///
/// Indexes follow twarc's: users by id and by username in one table (a username entry wins over an equal id), tweets
/// by id, media by `media_key`, polls and places by id; a later duplicate replaces an earlier one. Included tweets are
/// expanded once here, as twarc does before it expands the line's tweets, so a retweet row can take the original's
/// media and poll.
public struct TwarcCSVPage: Sendable {
    var users: [String: JSONObject] = [:]
    var tweets: [String: JSONObject] = [:]
    var media: [String: JSONObject] = [:]
    var polls: [String: JSONObject] = [:]
    var places: [String: JSONObject] = [:]
    /// The line's `__twarc` block, copied into every row.
    public var twarc: JSONValue?
    /// The line's `matching_rules` (filtered streams), copied into every row.
    public var matchingRules: JSONValue?

    /// Indexes `includes` (the object with `users`, `tweets`, `media`, `places` and `polls`) for the tweets of one
    /// line.
    public init(includes: JSONValue?, twarc: JSONValue? = nil, matchingRules: JSONValue? = nil) {
        self.twarc = twarc
        self.matchingRules = matchingRules
        func index(_ name: String, by key: String) -> [String: JSONObject] {
            var table: [String: JSONObject] = [:]
            for item in includes?[name]?.array ?? [] {
                guard let object = item.object, let id = object[key].flatMap(Self.lookupKey) else { continue }
                table[id] = object
            }
            return table
        }
        users = index("users", by: "id").merging(index("users", by: "username")) { _, byName in byName }
        media = index("media", by: "media_key")
        polls = index("polls", by: "id")
        places = index("places", by: "id")
        for (id, tweet) in index("tweets", by: "id") {
            tweets[id] = expand(tweet, referencesToo: false)
        }
    }

    /// A dictionary key for a JSON value used as an id. Python keys a dict by the value itself, so the string "12"
    /// and the number 12 are different keys; only strings and integers are looked up.
    static func lookupKey(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): return text
        case .int(let number): return "\u{0}\(number)"
        default: return nil
        }
    }

    /// `twarc2 flatten`'s expansion of one object and everything inside it: `author` beside `author_id`, `media`
    /// beside `media_keys`, `poll` beside `poll_ids`, the place merged into `geo`, users merged into `mentions`, and
    /// (for the line's own tweets) the included tweets merged into `referenced_tweets`. A missing object expands to
    /// `{}`, as twarc's defaulting dictionaries do.
    ///
    /// twarc also adds `in_reply_to_user` and `pinned_tweet`; twarc-csv removes both before writing, so they are not
    /// built here. Included tweets do not get their own references expanded: no column reads that second level.
    func expand(_ object: JSONObject, referencesToo: Bool) -> JSONObject {
        var object = object
        for position in object.members.indices {
            object.members[position].value = expand(object.members[position].value, referencesToo: referencesToo)
        }
        func find(_ table: [String: JSONObject], _ id: JSONValue) -> JSONObject {
            Self.lookupKey(id).flatMap { table[$0] } ?? JSONObject()
        }
        if let author = object["author_id"] {
            object.set("author", .object(find(users, author)))
        }
        if let keys = object["media_keys"]?.array {
            object.set("media", .array(keys.map { .object(find(media, $0)) }))
        }
        if let ids = object["poll_ids"]?.array, let last = ids.last {
            object.set("poll", .object(find(polls, last)))
        }
        if let geo = object["geo"]?.object, let place = geo["place_id"] {
            object.set("geo", .object(geo.merging(find(places, place))))
        }
        if let mentions = object["mentions"]?.array {
            object.set(
                "mentions",
                .array(
                    mentions.map { mention in
                        guard let fields = mention.object, let username = fields["username"] else { return mention }
                        return .object(fields.merging(find(users, username)))
                    }))
        }
        if referencesToo, let references = object["referenced_tweets"]?.array {
            object.set(
                "referenced_tweets",
                .array(
                    references.map { reference in
                        guard let fields = reference.object, let id = fields["id"] else { return reference }
                        return .object(fields.merging(find(tweets, id)))
                    }))
        }
        return object
    }

    private func expand(_ value: JSONValue, referencesToo: Bool) -> JSONValue {
        switch value {
        case .object(let object): return .object(expand(object, referencesToo: referencesToo))
        case .array(let items): return .array(items.map { expand($0, referencesToo: referencesToo) })
        default: return value
        }
    }
}

extension JSONObject {
    /// Sets `key` as a Python dict assignment does: in place when present, appended otherwise.
    mutating func set(_ key: String, _ value: JSONValue) {
        if let position = members.firstIndex(where: { $0.key == key }) {
            members[position].value = value
        } else {
            members.append((key, value))
        }
    }

    /// Removes every member named `key` and returns the first one's value, as `dict.pop(key, None)` does.
    @discardableResult
    mutating func remove(_ key: String) -> JSONValue? {
        let value = self[key]
        if value != nil { members.removeAll { $0.key == key } }
        return value
    }

    /// `{**self, **other}`: this object's members, then `other`'s, a member of `other` replacing one of the same name.
    func merging(_ other: JSONObject) -> JSONObject {
        var merged = self
        for member in other.members { merged.set(member.key, member.value) }
        return merged
    }
}
