/// Names a JSON value that holds something other than tweets, so an import can say what a file holds instead of
/// calling it malformed ("a page of users", "a number").
public enum NonTweetValue {
    /// What `value` is, when it is recognisably not a tweet, a page of tweets or a v1.1 status; nil when it looks
    /// like one of those (then the decoder's own message says what is wrong with it).
    public static func name(of value: JSONValue) -> String? {
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .int, .bigInteger, .double: return "a number"
        case .string: return "a string"
        case .array(let items):
            return items.isEmpty ? "an empty array" : "an array inside an array"
        case .object(let object):
            if let data = object["data"] {
                if case .array(let items) = data, let first = items.first {
                    return kind(of: first).map { "a page of \($0.plural)" }
                }
                if case .object = data { return kind(of: data).map { "a \($0.singular) lookup" } }
                return nil
            }
            if object["tweet"] != nil, object.members.count == 1 {
                return "an X archive entry; import the archive's folder or its tweets.js"
            }
            if object["dmConversation"] != nil || object["dm_conversation_id"] != nil {
                return "a direct message"
            }
            return kind(of: value).map { "a \($0.singular)" }
        }
    }

    private struct Kind {
        var singular: String
        var plural: String
    }

    /// The kind of a v2 object other than a tweet, from the fields only that kind has.
    private static func kind(of item: JSONValue) -> Kind? {
        guard case .object(let object) = item, object["text"] == nil else { return nil }
        if object["username"] != nil { return Kind(singular: "user", plural: "users") }
        if object["member_count"] != nil || object["follower_count"] != nil {
            return Kind(singular: "list", plural: "lists")
        }
        if object["media_key"] != nil { return Kind(singular: "media", plural: "media") }
        if object["full_name"] != nil, object["country_code"] != nil || object["place_type"] != nil {
            return Kind(singular: "place", plural: "places")
        }
        if object["options"] != nil, object["voting_status"] != nil { return Kind(singular: "poll", plural: "polls") }
        if object["dm_conversation_id"] != nil || object["event_type"] != nil {
            return Kind(singular: "direct message", plural: "direct messages")
        }
        if object["title"] != nil, object["state"] != nil, object["creator_id"] != nil {
            return Kind(singular: "space", plural: "spaces")
        }
        return nil
    }
}
