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

/// The members of a JSON object as ranges of its bytes, found by the scanner without building values, so they can
/// be copied out exactly as they are.
struct RawMembers {
    /// One member: where its key's text (between the quotes) and its value lie.
    struct Member {
        let key: Range<Int>
        let value: Range<Int>
    }

    private let bytes: [UInt8]
    let members: [Member]

    /// The members of `bytes`, or nil when they are not one JSON object.
    init?(_ bytes: [UInt8]) {
        guard let found = bytes.withUnsafeBufferPointer({ Self.scan($0) }) else { return nil }
        self.bytes = bytes
        members = found
    }

    private static func scan(_ buffer: UnsafeBufferPointer<UInt8>) -> [Member]? {
        var scanner = JSONParser.Scanner(bytes: buffer)
        var found: [Member] = []
        do {
            scanner.skipWhitespace()
            guard scanner.peek() == UInt8(ascii: "{") else { return nil }
            scanner.index += 1
            scanner.skipWhitespace()
            if scanner.peek() == UInt8(ascii: "}") { return found }
            while true {
                scanner.skipWhitespace()
                guard scanner.peek() == UInt8(ascii: "\"") else { return nil }
                let keyStart = scanner.index + 1
                _ = try scanner.string()
                let key = keyStart..<scanner.index - 1
                scanner.skipWhitespace()
                guard scanner.peek() == UInt8(ascii: ":") else { return nil }
                scanner.index += 1
                scanner.skipWhitespace()
                let valueStart = scanner.index
                try scanner.skipValue(depth: 1)
                found.append(Member(key: key, value: valueStart..<scanner.index))
                scanner.skipWhitespace()
                guard let byte = scanner.peek() else { return nil }
                scanner.index += 1
                if byte == UInt8(ascii: ",") { continue }
                return byte == UInt8(ascii: "}") ? found : nil
            }
        } catch {
            return nil
        }
    }

    /// The elements of a JSON array, each as its own bytes; nil when `bytes` hold something else.
    static func elements(_ bytes: [UInt8]) -> [[UInt8]]? {
        bytes.withUnsafeBufferPointer { buffer -> [[UInt8]]? in
            var found: [[UInt8]] = []
            var scanner = JSONParser.Scanner(bytes: buffer)
            do {
                try scanner.elements { scanner in
                    scanner.skipWhitespace()
                    let start = scanner.index
                    try scanner.skipValue(depth: 1)
                    found.append(Array(buffer[start..<scanner.index]))
                }
            } catch {
                return nil
            }
            return found
        }
    }

    /// A member's name as its text between the quotes.
    func key(of member: Member) -> String { String(decoding: bytes[member.key], as: UTF8.self) }

    /// The first member named `name` (matched on its text as written; the names looked up here have no escapes).
    func member(_ name: String) -> Member? { members.first { key(of: $0) == name } }

    /// A member's value, parsed: for the few values the flattening must read (ids, keys, types).
    func parsed(_ name: String) -> JSONValue? {
        guard let member = member(name) else { return nil }
        return bytes.withUnsafeBufferPointer { try? JSONParser.parse(UnsafeBufferPointer(rebasing: $0[member.value])) }
    }

    /// A member's value as its bytes.
    func value(of member: Member) -> [UInt8] { Array(bytes[member.value]) }

    /// Appends a member's value as it came.
    func writeValue(of member: Member, into writer: inout JSONWriter) {
        bytes.withUnsafeBufferPointer { writer.append(UnsafeBufferPointer(rebasing: $0[member.value])) }
    }

    /// Writes `"name":` with the name's text as it came.
    func writeKey(of member: Member, into writer: inout JSONWriter) {
        writer.raw("\"")
        bytes.withUnsafeBufferPointer { writer.append(UnsafeBufferPointer(rebasing: $0[member.key])) }
        writer.raw("\":")
    }

    /// Writes the object as it came, with `added` members after its own.
    func write(appending added: [(StaticString, (inout JSONWriter) -> Void)], into writer: inout JSONWriter) {
        writer.raw("{")
        for (index, member) in members.enumerated() {
            if index > 0 { writer.raw(",") }
            writeKey(of: member, into: &writer)
            writeValue(of: member, into: &writer)
        }
        for (index, (name, body)) in added.enumerated() {
            if index > 0 || !members.isEmpty { writer.raw(",") }
            writer.key(name)
            body(&writer)
        }
        writer.raw("}")
    }
}

extension JSONWriter {
    /// Appends bytes that are already valid JSON text.
    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }
}
