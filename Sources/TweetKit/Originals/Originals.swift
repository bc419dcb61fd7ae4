import Foundation

/// One object exactly as a source delivered it: the bytes of its JSON text (a tweet from an API page, a twarc2 line,
/// an archive entry), kept so exports can write back what came in rather than what the models hold.
public struct OriginalJSON: Hashable, Sendable {
    /// The UTF-8 JSON text of one value.
    public var bytes: [UInt8]

    /// Wraps JSON text already known to be one well-formed value.
    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Wraps JSON text given as a string.
    public init(_ text: String) {
        bytes = Array(text.utf8)
    }

    /// Hashes the bytes in one call: the synthesized hash fed them to the hasher one at a time, and imports hash
    /// every user object of every page to skip unchanged ones.
    public func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    /// The text, for tests and messages.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The value parsed; nil if the bytes are not JSON (they always are when a decoder made them).
    public var value: JSONValue? { try? JSONParser.parse(Data(bytes)) }
}

/// The original JSON of a page's objects, keyed the way tweets refer to them.
///
/// Decoders fill this only when asked (`keepOriginals`), so pages compared in tests stay model-only. The store keeps
/// it compressed; exports write these objects verbatim and fall back to the models for objects without an original
/// (rows imported before tweetsh kept originals).
public struct Originals: Hashable, Sendable {
    /// Tweets (results and included ones) by id.
    public var tweets: [TweetID: OriginalJSON] = [:]
    /// Users by id.
    public var users: [UserID: OriginalJSON] = [:]
    /// Media by `media_key`.
    public var media: [String: OriginalJSON] = [:]
    /// Places (`includes.places`) by id; tweets refer to them from `geo.place_id`. The models hold no places.
    public var places: [String: OriginalJSON] = [:]
    /// Polls (`includes.polls`) by id; tweets refer to them from `attachments.poll_ids`.
    public var polls: [String: OriginalJSON] = [:]
    /// The page's `__twarc` block (twarc2's provenance: url, version, retrieved_at), when it had one.
    public var twarc: OriginalJSON?
    /// A different `__twarc` block for some tweets, where a page gathers tweets fetched at different times (a
    /// search of the store). Tweets not listed here have `twarc`.
    public var tweetTwarc: [TweetID: OriginalJSON] = [:]
    /// The page's `meta` as sent, for an API page exported as it came.
    public var meta: OriginalJSON?

    /// Creates an empty set.
    public init() {}

    /// True when nothing is kept.
    public var isEmpty: Bool {
        tweets.isEmpty && users.isEmpty && media.isEmpty && places.isEmpty && polls.isEmpty && twarc == nil
            && tweetTwarc.isEmpty && meta == nil
    }

    /// The `__twarc` block that goes with a tweet.
    public func twarc(for id: TweetID) -> OriginalJSON? { tweetTwarc[id] ?? twarc }

    /// Adds another page's originals; the newer copy of an object wins, as it does in the store.
    public mutating func merge(_ other: Originals) {
        tweets.merge(other.tweets) { _, new in new }
        users.merge(other.users) { _, new in new }
        media.merge(other.media) { _, new in new }
        places.merge(other.places) { _, new in new }
        polls.merge(other.polls) { _, new in new }
        if let twarc = other.twarc {
            for id in other.tweets.keys { tweetTwarc[id] = twarc }
        }
        tweetTwarc.merge(other.tweetTwarc) { _, new in new }
    }
}

extension OriginalJSON {
    /// The place and polls a tweet's JSON refers to (`geo.place_id`, `attachments.poll_ids`), read without building
    /// a tree; exports look them up to write `includes.places` and `includes.polls`.
    public var placeAndPolls: (place: String?, polls: [String]) {
        bytes.withUnsafeBufferPointer { buffer in
            // Most tweets have neither: a plain search for the two names skips the walk through the object.
            guard Self.mentionsPlaceOrPoll(buffer) else { return (nil, []) }
            var scanner = JSONParser.Scanner(bytes: buffer)
            var place: String?
            var polls: [String] = []
            try? scanner.members { scanner, key in
                if key == "geo" {
                    try scanner.members { scanner, key in
                        if key == "place_id" { place = try scanner.readString() } else { try scanner.skipValue() }
                    }
                } else if key == "attachments" {
                    try scanner.members { scanner, key in
                        if key == "poll_ids" {
                            try scanner.elements { scanner in
                                if let id = try scanner.readString() { polls.append(id) }
                            }
                        } else {
                            try scanner.skipValue()
                        }
                    }
                } else {
                    try scanner.skipValue()
                }
            }
            return (place, polls)
        }
    }

    /// Whether `"place_id"` or `"poll_ids"` occurs in the bytes.
    private static let placeName = Array("place_id\"".utf8)
    private static let pollName = Array("poll_ids\"".utf8)

    private static func mentionsPlaceOrPoll(_ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        let place = placeName
        let poll = pollName
        var index = 0
        let end = buffer.count - 10
        while index < end {
            if buffer[index] == UInt8(ascii: "\""), buffer[index + 1] == UInt8(ascii: "p") {
                let next = buffer[index + 2]
                let name = next == UInt8(ascii: "l") ? place : next == UInt8(ascii: "o") ? poll : nil
                if let name, (0..<9).allSatisfy({ buffer[index + 1 + $0] == name[$0] }) { return true }
            }
            index += 1
        }
        return false
    }
}
