import Foundation

/// `twarc2 flatten`'s shape built from original objects: the tweet as the API sent it, with the objects it refers to
/// merged in: `author`, `in_reply_to_user`, `attachments.media`, `attachments.poll`, `geo.place`, each
/// `referenced_tweets` item expanded with the referenced tweet (one level, itself flattened but not its references),
/// and `__twarc`. `OriginalsExtractor.unflatten` takes such a line apart again.
///
/// The line is spliced from the originals' bytes rather than parsed into `JSONValue`s and written again: a tree
/// rounds numbers through `Double` (an integer past 2^63 became `1.2345678901234568e+29`, `1e400` became `null`) and
/// resolves escapes (a lone `\ud800` became U+FFFD), and a flat export must give back every value as it came.
enum Flattening {
    static let authorKey = "author"
    static let replyUserKey = "in_reply_to_user"

    /// Writes the flattened tweet `id` as one JSON object; false (and nothing written) when its original is not
    /// kept. Users and media without an original are written from their models.
    static func write(
        _ id: TweetID, originals: Originals, users: [UserID: User], media: [String: Media], fallbackTwarc: JSONValue?,
        into writer: inout JSONWriter
    ) -> Bool {
        guard let tweet = originals.tweets[id], let members = RawMembers(tweet.bytes) else { return false }
        let context = Context(originals: originals, users: users, media: media)
        writer.raw("{")
        let wrote = context.expand(members, depth: 0, into: &writer)
        let (block, matchingRules) = originals.twarc(for: id).map(LineBlock.parts) ?? (nil, nil)
        // `twarc2 flatten` copies a stream line's rules into each of its tweets, as it does the line's `__twarc`.
        var separated = wrote
        if let matchingRules {
            writer.raw(separated ? "," : "")
            writer.key("matching_rules")
            writer.original(matchingRules)
            separated = true
        }
        if let block {
            writer.raw(separated ? "," : "")
            writer.key("__twarc")
            writer.original(block)
        } else if let fallbackTwarc {
            writer.raw(separated ? "," : "")
            writer.key("__twarc")
            writer.value(fallbackTwarc)
        }
        writer.raw("}")
        return true
    }

    /// What expanding a tweet looks objects up in.
    private struct Context {
        let originals: Originals
        let users: [UserID: User]
        let media: [String: Media]

        /// Writes a tweet's members, expanded, without the braces; returns whether it wrote any.
        func expand(_ tweet: RawMembers, depth: Int, into writer: inout JSONWriter) -> Bool {
            var first = true
            func separate() {
                if !first { writer.raw(",") }
                first = false
            }
            for member in tweet.members {
                separate()
                tweet.writeKey(of: member, into: &writer)
                switch tweet.key(of: member) {
                case "attachments": attachments(tweet.value(of: member), into: &writer)
                case "geo": geo(tweet.value(of: member), into: &writer)
                case "referenced_tweets" where depth == 0: references(tweet.value(of: member), into: &writer)
                default: tweet.writeValue(of: member, into: &writer)
                }
            }
            if let author = user(tweet.parsed("author_id")?.snowflake) {
                separate()
                writer.key("author")
                author(&writer)
            }
            if let replied = user(tweet.parsed("in_reply_to_user_id")?.snowflake) {
                separate()
                writer.key("in_reply_to_user")
                replied(&writer)
            }
            return !first
        }

        /// The user's original, or its model when no original was kept.
        private func user(_ id: UserID?) -> ((inout JSONWriter) -> Void)? {
            guard let id else { return nil }
            if let original = originals.users[id] { return { $0.original(original) } }
            if let model = users[id] { return { $0.user(model) } }
            return nil
        }

        /// `attachments` with `media` (and `poll`) appended inside it.
        private func attachments(_ value: [UInt8], into writer: inout JSONWriter) {
            guard let object = RawMembers(value) else { return writer.append(value) }
            let keys = object.parsed("media_keys")?.array?.compactMap(\.string) ?? []
            var written: [(inout JSONWriter) -> Void] = []
            for key in keys {
                if let original = originals.media[key] {
                    written.append { $0.original(original) }
                } else if let model = media[key] {
                    written.append { $0.media(model) }
                }
            }
            let poll = object.parsed("poll_ids")?.array?.first?.string.flatMap { originals.polls[$0] }
            var added: [(StaticString, (inout JSONWriter) -> Void)] = []
            if !written.isEmpty {
                added.append(
                    (
                        "media",
                        { writer in
                            writer.raw("[")
                            for (index, item) in written.enumerated() {
                                if index > 0 { writer.raw(",") }
                                item(&writer)
                            }
                            writer.raw("]")
                        }
                    ))
            }
            if let poll { added.append(("poll", { $0.original(poll) })) }
            object.write(appending: added, into: &writer)
        }

        /// `geo` with its `place` appended inside it.
        private func geo(_ value: [UInt8], into writer: inout JSONWriter) {
            guard let object = RawMembers(value) else { return writer.append(value) }
            let place = object.parsed("place_id")?.string.flatMap { originals.places[$0] }
            var added: [(StaticString, (inout JSONWriter) -> Void)] = []
            if let place { added.append(("place", { $0.original(place) })) }
            object.write(appending: added, into: &writer)
        }

        /// Each reference whose tweet is kept becomes `type` followed by that tweet, itself expanded one level.
        private func references(_ value: [UInt8], into writer: inout JSONWriter) {
            guard let items = RawMembers.elements(value) else { return writer.append(value) }
            writer.raw("[")
            for (index, item) in items.enumerated() {
                if index > 0 { writer.raw(",") }
                guard let reference = RawMembers(item), let id = reference.parsed("id")?.snowflake,
                    let original = originals.tweets[id], let referenced = RawMembers(original.bytes)
                else {
                    writer.append(item)
                    continue
                }
                writer.raw("{")
                var wroteType = false
                if let type = reference.member("type") {
                    reference.writeKey(of: type, into: &writer)
                    reference.writeValue(of: type, into: &writer)
                    wroteType = true
                }
                // Sized before writing, so the comma goes only between members.
                var inner = JSONWriter(capacity: original.bytes.count * 2)
                if expand(referenced, depth: 1, into: &inner) {
                    if wroteType { writer.raw(",") }
                    inner.withUnsafeBytes { writer.append($0.bindMemory(to: UInt8.self)) }
                }
                writer.raw("}")
            }
            writer.raw("]")
        }
    }
}
