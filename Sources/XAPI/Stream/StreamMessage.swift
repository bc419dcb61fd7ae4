import Foundation
import TweetKit

/// One rule of the filtered stream that a tweet matched, as the stream's `matching_rules` names it.
public struct MatchedRule: Hashable, Sendable {
    /// The rule's id.
    public var id: String
    /// The rule's tag, when it was given one.
    public var tag: String?

    /// Creates a matched rule.
    public init(id: String, tag: String?) {
        self.id = id
        self.tag = tag
    }
}

/// A tweet as the filtered stream delivered it: one tweet with its includes and originals, the rules it matched and
/// the line as it came (what the JSONL output writes, as twarc2 does).
public struct StreamedTweet: Hashable, Sendable {
    /// The tweet, its includes (users, media, referenced tweets) and the JSON of each object as sent.
    public var page: Page
    /// The rules it matched, in the stream's order.
    public var rules: [MatchedRule]
    /// The line as received, without its line break.
    public var line: [UInt8]
    /// True for a tweet found by gap recovery rather than delivered by the stream.
    public var recovered = false

    /// Creates a streamed tweet.
    public init(page: Page, rules: [MatchedRule], line: [UInt8], recovered: Bool = false) {
        self.page = page
        self.rules = rules
        self.line = line
        self.recovered = recovered
    }

    /// The tweet's id (a streamed page holds exactly one tweet).
    public var id: TweetID { page.tweets[0].id }

    /// The tags of the rules it matched; a rule without a tag shows as its id.
    public var tags: [String] { rules.map { $0.tag ?? $0.id } }
}

/// What one line of the filtered stream says.
public enum StreamMessage: Hashable, Sendable {
    /// An empty line (`\r\n`): X sends one every 20 seconds or so when no tweet is due, to show the link is alive.
    case heartbeat
    /// A matching tweet.
    case tweet(StreamedTweet)
    /// An error object inside the stream: X is about to close the connection (`operational-disconnect`) or reports a
    /// problem with it.
    case disconnect(StreamFailure)
}

/// Turns the stream's lines into messages.
///
/// The stream is newline-delimited JSON: one object per `\r\n`-terminated line, and an empty line as a keep-alive.
public enum StreamLineDecoder {
    /// Decodes one line (its terminator removed or not). Throws a `DecodingProblem` for a line that is neither
    /// empty, nor a tweet, nor an error object.
    public static func decode<Bytes: Collection<UInt8>>(_ line: Bytes) throws -> StreamMessage {
        // One bulk copy from contiguous bytes: this generic function is not specialized for callers in other modules,
        // and copying element by element through the generic path cost more than the decoding.
        try decode(bytes: line.withContiguousStorageIfAvailable { Array($0) } ?? Array(line))
    }

    private static func decode(bytes line: [UInt8]) throws -> StreamMessage {
        var bytes = line
        while let last = bytes.last, last == UInt8(ascii: "\r") || last == UInt8(ascii: "\n") { bytes.removeLast() }
        if bytes.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) { return .heartbeat }
        let data = Data(bytes)
        let page: Page
        do {
            page = try APIResponseDecoder.decodePage(from: data, keepOriginals: true)
        } catch {
            // An error document (`{"title":…,"detail":…}`) is what X sends before it closes the stream.
            if let failure = disconnectFailure(bytes) { return .disconnect(failure) }
            throw error
        }
        guard page.tweets.count == 1 else {
            if let failure = disconnectFailure(bytes) { return .disconnect(failure) }
            throw DecodingProblem("a stream line holds \(page.tweets.count) tweets; one was expected")
        }
        return .tweet(StreamedTweet(page: page, rules: matchingRules(bytes), line: bytes))
    }

    /// Reads `matching_rules` without parsing the whole line a second time: the fast page decoder has read the rest.
    static func matchingRules(_ bytes: [UInt8]) -> [MatchedRule] {
        let key = Array("\"matching_rules\"".utf8)
        guard let start = lastIndex(of: key, in: bytes) else { return [] }
        var offset = start + key.count
        while offset < bytes.count, bytes[offset] == UInt8(ascii: " ") || bytes[offset] == UInt8(ascii: ":") {
            offset += 1
        }
        let value = bytes.withUnsafeBufferPointer { try? JSONParser.parsePrefix($0, from: offset).0 }
        return (value?.array ?? []).compactMap { item in
            guard let id = item["id"]?.string ?? item["id"]?.int.map(String.init) else { return nil }
            return MatchedRule(id: id, tag: item["tag"]?.string)
        }
    }

    /// The failure an error object describes, or nil when the line is not one.
    static func disconnectFailure(_ bytes: [UInt8]) -> StreamFailure? {
        guard let root = try? JSONParser.parse(Data(bytes)), root["data"] == nil else { return nil }
        let problem = root["errors"]?.array?.first ?? root
        guard problem["title"] != nil || problem["type"] != nil || problem["disconnect_type"] != nil else {
            return nil
        }
        return StreamFailure.classify(problem: problem, status: nil)
    }

    /// The last occurrence: `matching_rules` comes after the tweet and its includes, at the end of the line.
    private static func lastIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard needle.count <= haystack.count, let first = needle.first else { return nil }
        var index = haystack.count - needle.count
        while index >= 0 {
            if haystack[index] == first, haystack[index..<(index + needle.count)].elementsEqual(needle) {
                return index
            }
            index -= 1
        }
        return nil
    }
}

/// Splits a byte stream into `\n`-terminated lines, across chunk boundaries.
public struct StreamLineSplitter: Sendable {
    private var pending: [UInt8] = []
    /// The longest line kept; a longer one is cut off, so a broken server cannot exhaust memory.
    public let maximumLineLength: Int

    /// Creates a splitter.
    public init(maximumLineLength: Int = 16 << 20) {
        self.maximumLineLength = maximumLineLength
    }

    /// Feeds a chunk; returns the lines it completed, each without its `\n` (a `\r` before it stays).
    public mutating func feed<Bytes: Collection<UInt8>>(_ chunk: Bytes) -> [[UInt8]] {
        // The scan runs over the chunk's bytes in place (Data and arrays are contiguous): called through the generic
        // path from another module, `firstIndex(of:)` and slicing went through witness tables byte by byte and cost
        // more than decoding the lines.
        if let lines = chunk.withContiguousStorageIfAvailable({ feed(buffer: $0) }) { return lines }
        return Array(chunk).withUnsafeBufferPointer { feed(buffer: $0) }
    }

    private mutating func feed(buffer: UnsafeBufferPointer<UInt8>) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        guard let base = buffer.baseAddress else { return lines }
        var start = 0
        while start < buffer.count, let hit = memchr(base + start, Int32(UInt8(ascii: "\n")), buffer.count - start) {
            let end = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
            let run = UnsafeBufferPointer(rebasing: buffer[start..<end])
            if pending.isEmpty, run.count <= maximumLineLength {
                // A line inside one chunk, the usual case: one copy, of the right size.
                lines.append(Array(run))
            } else {
                append(run)
                lines.append(pending)
                pending.removeAll(keepingCapacity: true)
            }
            start = end + 1
        }
        append(UnsafeBufferPointer(rebasing: buffer[start...]))
        return lines
    }

    private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        let room = maximumLineLength - pending.count
        if room <= 0 { return }
        if bytes.count <= room {
            pending.append(contentsOf: bytes)
        } else {
            pending.append(contentsOf: bytes.prefix(room))
        }
    }

    /// Bytes of a line not yet terminated.
    public var pendingCount: Int { pending.count }
}
