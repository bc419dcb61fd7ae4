import Foundation

/// `twarc2 flatten`'s shape built from original objects: the tweet as the API sent it, with the objects it refers to
/// merged in: `author`, `in_reply_to_user`, `attachments.media`, `attachments.poll`, `geo.place`, each
/// `referenced_tweets` item expanded with the referenced tweet (one level, itself flattened but not its references),
/// and `__twarc`. `OriginalsExtractor.unflatten` takes such a line apart again.
enum Flattening {
    static let authorKey = "author"
    static let replyUserKey = "in_reply_to_user"

    /// The flattened tweet `id`, or nil when its original is not kept.
    static func flattened(
        _ id: TweetID, originals: Originals, users: [UserID: User], media: [String: Media], fallbackTwarc: JSONValue?
    ) -> JSONValue? {
        guard let tweet = originals.tweets[id]?.value?.object else { return nil }
        var object = expand(tweet, originals: originals, users: users, media: media, depth: 0)
        let (block, matchingRules) = originals.twarc(for: id).map(LineBlock.parts) ?? (nil, nil)
        // `twarc2 flatten` copies a stream line's rules into each of its tweets, as it does the line's `__twarc`.
        if let rules = matchingRules?.value { object.members.append(("matching_rules", rules)) }
        if let twarc = block?.value ?? fallbackTwarc { object.members.append(("__twarc", twarc)) }
        return .object(object)
    }

    private static func expand(
        _ tweet: JSONObject, originals: Originals, users: [UserID: User], media mediaModels: [String: Media],
        depth: Int
    ) -> JSONObject {
        var members: [(key: String, value: JSONValue)] = []
        for member in tweet.members {
            switch member.key {
            case "attachments":
                guard case .object(var attachments) = member.value else {
                    members.append(member)
                    continue
                }
                let keys = attachments["media_keys"]?.array?.compactMap(\.string) ?? []
                let media = keys.compactMap { key in
                    originals.media[key]?.value ?? mediaModels[key].map(modelValue)
                }
                if !media.isEmpty { attachments.members.append(("media", .array(media))) }
                if let pollID = attachments["poll_ids"]?.array?.first?.string,
                    let poll = originals.polls[pollID]?.value
                {
                    attachments.members.append(("poll", poll))
                }
                members.append((member.key, .object(attachments)))
            case "geo":
                guard case .object(var geo) = member.value else {
                    members.append(member)
                    continue
                }
                if let placeID = geo["place_id"]?.string, let place = originals.places[placeID]?.value {
                    geo.members.append(("place", place))
                }
                members.append((member.key, .object(geo)))
            case "referenced_tweets" where depth == 0:
                let references = (member.value.array ?? []).map { reference -> JSONValue in
                    guard let id = reference["id"]?.snowflake, let referenced = originals.tweets[id]?.value?.object
                    else { return reference }
                    let inner = expand(referenced, originals: originals, users: users, media: mediaModels, depth: 1)
                    var expanded: [(key: String, value: JSONValue)] = []
                    if let type = reference["type"] { expanded.append(("type", type)) }
                    return .object(JSONObject(expanded + inner.members))
                }
                members.append((member.key, .array(references)))
            default:
                members.append(member)
            }
        }
        func user(_ key: String) -> JSONValue? {
            guard let id = tweet[key]?.snowflake else { return nil }
            return originals.users[id]?.value ?? users[id].map(modelValue)
        }
        if let author = user("author_id") { members.append((authorKey, author)) }
        if let replied = user("in_reply_to_user_id") { members.append((replyUserKey, replied)) }
        return JSONObject(members)
    }

    private static func modelValue(_ user: User) -> JSONValue {
        var writer = JSONWriter(capacity: 512)
        writer.user(user)
        return (try? JSONParser.parse(writer.data)) ?? .null
    }

    private static func modelValue(_ media: Media) -> JSONValue {
        var writer = JSONWriter(capacity: 256)
        writer.media(media)
        return (try? JSONParser.parse(writer.data)) ?? .null
    }
}
