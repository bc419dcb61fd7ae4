import Foundation
import TweetKit
import XCTest

@testable import TweetShell

/// Tweets written to take over a terminal, and the check that none of it reaches one.
enum HostileCorpus {
    /// Every C0 control, DEL and every C1 control, each between letters so a dropped one would show.
    static let everyControl: String = {
        var text = "controls:"
        for value in Array(0x00...0x1F) + [0x7F] + Array(0x80...0x9F) {
            text += "<" + String(Character(Unicode.Scalar(UInt32(value))!)) + ">"
        }
        return text
    }()

    /// Texts, each aimed at one weakness.
    static let texts: [String] = [
        everyControl,
        "window title \u{1B}]0;PWNED BEL\u{07} after",
        "window title \u{1B}]2;PWNED ST\u{1B}\\ after",
        "hyperlink \u{1B}]8;;https://evil.example\u{1B}\\click\u{1B}]8;;\u{1B}\\ after",
        "colour \u{1B}[31mRED\u{1B}[0m clear \u{1B}[2J\u{1B}[H alt screen \u{1B}[?1049h cursor \u{1B}[10;10H",
        "device control \u{1B}P+q544e\u{1B}\\ and a lone escape at the end \u{1B}",
        "C1 CSI \u{9B}31m and C1 OSC \u{9D}0;PWNED\u{9C} and NEL\u{85}next",
        "carriage return\roverwrite and CRLF\r\nnext line and a lone CR at the end\r",
        "backspaces erase\u{08}\u{08}\u{08}\u{08}\u{08}xxxxx and DEL \u{7F}",
        "override \u{202E}gnp.exe and embeddings \u{202A}\u{202B}\u{202C}\u{202D} end",
        "unbalanced isolates \u{2066}\u{2067}\u{2068} שלום and stray \u{2069}\u{2069}\u{2069}\u{2069} after",
        "zero-width joiners 👩\u{200D}💻 👨\u{200D}👩\u{200D}👧 and combining e\u{301}\u{302}\u{303} \u{301}leading",
        "line one\nline two\n\n\nline five\u{2028}separator\u{2029}paragraph\ttab",
        "\u{1B}\u{301} escape carrying a combining mark, and \u{1B}[\u{200D}31m a joiner inside a CSI",
    ]

    static let evilUser = User(
        id: 66, username: "ev\u{1B}[31mil", name: "Evil \u{1B}]0;NAME\u{07} \u{202E}Name\r\u{08}")

    /// Items through the real result builder, with hostile text in every field a renderer shows: text, names,
    /// handles, tags, mentions, links, media, the quoted tweet, the retweeted author and the reply handle.
    static func items() -> [ResultItem] {
        let base: UInt64 = 1_800_000_000_000_000_000
        let entities = TweetEntities(
            hashtags: [Hashtag(start: 0, end: 1, tag: "t\u{1B}[1mag\u{202E}")],
            mentions: [Mention(start: 0, end: 1, username: "m\u{1B}]0;x\u{07}", id: 66)],
            urls: [URLEntity(start: 0, end: 1, url: "https://t.co/a", expandedURL: "https://e\u{1B}[2J.example/\r")])
        let media = Media(
            mediaKey: "3_\u{1B}[5m", kind: .photo, url: "https://pbs.example/\u{9B}1m",
            altText: "alt \u{1B}]0;ALT\u{07}")
        let quotedID = SnowflakeID(base - 1)
        let originalID = SnowflakeID(base - 2)
        var tweets: [Tweet] = []
        for (index, text) in texts.enumerated() {
            var references = [ReferencedTweet(kind: .quoted, id: quotedID)]
            if index % 3 == 1 { references.append(ReferencedTweet(kind: .repliedTo, id: quotedID)) }
            tweets.append(
                Tweet(
                    id: SnowflakeID(base + UInt64(index)), text: text, authorID: 66,
                    createdAt: Date(timeIntervalSince1970: 1_700_000_000), lang: "e\u{1B}[1mn",
                    inReplyToUserID: index % 3 == 1 ? 66 : nil, referencedTweets: references,
                    metrics: TweetMetrics(likes: 1), entities: entities, mediaKeys: [media.mediaKey]))
        }
        tweets.append(
            Tweet(
                id: SnowflakeID(base + 100), text: "RT @ev: " + texts[1], authorID: 66,
                referencedTweets: [ReferencedTweet(kind: .retweeted, id: originalID)]))
        let quoted = Tweet(id: quotedID, text: texts[0] + texts[4], authorID: 66, entities: entities)
        let original = Tweet(id: originalID, text: texts[2], authorID: 66, entities: entities)
        let page = Page(tweets: tweets, users: [evilUser], includedTweets: [quoted, original], media: [media])
        return ResultBuilder.items(from: page, startingAt: 1)
    }

    /// The escape sequences tweetsh's own `Style` writes; nothing else may start with ESC.
    static let ownSGR =
        ["\u{1B}[0m", "\u{1B}[1m", "\u{1B}[2m", "\u{1B}[4m", "\u{1B}[31m", "\u{1B}[33m", "\u{1B}[34m"]
        + ["\u{1B}[35m", "\u{1B}[36m"]

    /// Fails unless `output` is safe for a terminal (see `problem(in:)`).
    static func assertSafe(_ output: String, _ context: String, file: StaticString = #filePath, line: UInt = #line) {
        if let problem = problem(in: output) { XCTFail("\(context): \(problem)", file: file, line: line) }
    }

    /// What makes `output` unsafe, or nil: a control byte other than `\n`, an ESC that does not start one of the
    /// renderer's own SGR codes, a C1 control, a bidi embedding or override, or a line whose isolates do not balance.
    static func problem(in output: String) -> String? {
        let bytes = Array(output.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x1B {
                let rest = bytes[index...]
                guard let code = ownSGR.first(where: { rest.starts(with: Array($0.utf8)) }) else {
                    let shown = String(decoding: bytes[index..<min(bytes.count, index + 12)], as: UTF8.self)
                    return "a foreign escape reached the terminal: \(shown.debugDescription)"
                }
                index += code.utf8.count
                continue
            }
            if (byte < 0x20 && byte != 0x0A) || byte == 0x7F {
                return "control byte 0x\(String(byte, radix: 16)) at \(index)"
            }
            index += 1
        }
        for scalar in output.unicodeScalars {
            let value = scalar.value
            if (0x80...0x9F).contains(value) || (0x202A...0x202E).contains(value) || value == 0x2028 || value == 0x2029
            {
                return "U+\(String(value, radix: 16)) reached the terminal"
            }
        }
        for text in output.split(separator: "\n") {
            var depth = 0
            for scalar in text.unicodeScalars {
                if (0x2066...0x2068).contains(scalar.value) { depth += 1 }
                if scalar.value == 0x2069 {
                    depth -= 1
                    if depth < 0 { break }
                }
            }
            if depth != 0 { return "unbalanced isolates in \(String(text).debugDescription)" }
        }
        return nil
    }
}
