import Foundation

/// Flattened tweets (`twarc2 flatten`) and lone users taken apart by byte ranges, as pages are: every value is kept
/// as the file wrote it (numbers digit for digit, escapes as written), where a tree would round numbers through
/// `Double` and resolve escapes. Only whitespace between tokens goes.
extension OriginalsExtractor {
    /// The originals of a line already parsed as `root`, from its bytes where the shape allows (a page, a flattened
    /// tweet, a lone user), so they keep every value as written; other shapes from the tree.
    public static func extract(value root: JSONValue, text bytes: UnsafeBufferPointer<UInt8>) -> Originals {
        if root["data"] != nil, let originals = try? page(bytes) { return originals }
        if root["data"] == nil, root["id_str"] == nil, let originals = flattenedOrUser(bytes) { return originals }
        return extract(value: root)
    }

    /// The originals of a line that is one flattened tweet or one user; nil for anything else (the tree path then
    /// looks at it).
    static func flattenedOrUser(_ bytes: UnsafeBufferPointer<UInt8>) -> Originals? {
        guard let object = RawMembers(Array(bytes)) else { return nil }
        var originals = Originals()
        if object.member("id") != nil, object.member("text") != nil, object.member("id_str") == nil,
            object.member("data") == nil
        {
            // `twarc2 flatten` copies a stream line's rules into each tweet, beside `__twarc`.
            originals.twarc = LineBlock.block(
                twarc: object.member("__twarc").map { compact(object.value(of: $0)) },
                matchingRules: object.member("matching_rules").map { compact(object.value(of: $0)) })
            guard unflatten(object, into: &originals) else { return nil }
            return originals
        }
        if object.member("id") != nil, object.member("username") != nil, object.member("data") == nil {
            guard let id = object.parsed("id")?.snowflake else { return nil }
            originals.users[id] = compact(Array(bytes))
            return originals
        }
        return nil
    }

    /// Splits a flattened tweet into the API objects it was made of (the inverse of `Flattening.write`); false when
    /// it has no usable id.
    private static func unflatten(_ tweet: RawMembers, into originals: inout Originals) -> Bool {
        guard let id = tweet.parsed("id")?.snowflake else { return false }
        var kept = JSONWriter(capacity: 1024)
        kept.raw("{")
        var first = true
        func keep(_ member: RawMembers.Member, _ write: (inout JSONWriter) -> Void) {
            if !first { kept.raw(",") }
            first = false
            tweet.writeKey(of: member, into: &kept)
            write(&kept)
        }
        for member in tweet.members {
            switch tweet.key(of: member) {
            case Flattening.authorKey, Flattening.replyUserKey:
                addKeyed(tweet.value(of: member), "id", to: &originals.users)
            case "__twarc", "matching_rules":
                continue
            case "attachments":
                guard let attachments = RawMembers(tweet.value(of: member)) else {
                    keep(member) { tweet.writeValue(of: member, into: &$0) }
                    continue
                }
                let own = attachments.members.filter { item in
                    switch attachments.key(of: item) {
                    case "media":
                        for media in RawMembers.elements(attachments.value(of: item)) ?? [] {
                            addKeyed(media, "media_key", to: &originals.media)
                        }
                        return false
                    case "poll":
                        addKeyed(attachments.value(of: item), "id", to: &originals.polls)
                        return false
                    default:
                        return true
                    }
                }
                keep(member) { attachments.write(own, into: &$0) }
            case "geo":
                guard let geo = RawMembers(tweet.value(of: member)) else {
                    keep(member) { tweet.writeValue(of: member, into: &$0) }
                    continue
                }
                let own = geo.members.filter { item in
                    guard geo.key(of: item) == "place" else { return true }
                    addKeyed(geo.value(of: item), "id", to: &originals.places)
                    return false
                }
                keep(member) { geo.write(own, into: &$0) }
            case "referenced_tweets":
                guard let references = RawMembers.elements(tweet.value(of: member)) else {
                    keep(member) { tweet.writeValue(of: member, into: &$0) }
                    continue
                }
                var links: [[UInt8]] = []
                for reference in references {
                    guard let object = RawMembers(reference) else {
                        links.append(reference)
                        continue
                    }
                    if object.member("text") != nil {
                        // The expanded reference is the referenced tweet plus the reference's `type`.
                        var expanded = JSONWriter(capacity: reference.count)
                        object.write(object.members.filter { object.key(of: $0) != "type" }, into: &expanded)
                        if let referenced = RawMembers(expanded.bytes) {
                            _ = unflatten(referenced, into: &originals)
                        }
                    }
                    var link = JSONWriter(capacity: 64)
                    object.write(
                        object.members.filter { ["type", "id"].contains(object.key(of: $0)) }, into: &link)
                    links.append(link.bytes)
                }
                keep(member) { writer in
                    writer.raw("[")
                    for (index, link) in links.enumerated() {
                        if index > 0 { writer.raw(",") }
                        writer.append(link)
                    }
                    writer.raw("]")
                }
            default:
                keep(member) { tweet.writeValue(of: member, into: &$0) }
            }
        }
        kept.raw("}")
        originals.tweets[id] = compact(kept.bytes)
        return true
    }

    /// Files an embedded object under its member `key`: a user by its id, media by key, places and polls by id.
    private static func addKeyed<Key: Hashable>(
        _ bytes: [UInt8], _ key: String, to table: inout [Key: OriginalJSON], as make: (JSONValue) -> Key?
    ) {
        guard let object = RawMembers(bytes), let value = object.parsed(key), let id = make(value) else { return }
        table[id] = compact(bytes)
    }

    private static func addKeyed(_ bytes: [UInt8], _ key: String, to table: inout [UserID: OriginalJSON]) {
        addKeyed(bytes, key, to: &table, as: \.snowflake)
    }

    private static func addKeyed(_ bytes: [UInt8], _ key: String, to table: inout [String: OriginalJSON]) {
        addKeyed(bytes, key, to: &table, as: \.string)
    }

    /// The value's text without whitespace between tokens, as every stored original is.
    private static func compact(_ bytes: [UInt8]) -> OriginalJSON {
        bytes.withUnsafeBufferPointer { OriginalJSON(minifying: $0) }
    }
}
