import Foundation
import TweetKit

/// Renders one tweet in full for `show` and `format detail`: author, local time, text wrapped to the width,
/// metrics, links, tags, reply and quote context, and the tweet's URL.
///
/// Every field that comes from the tweet, its author or its entities goes through `TerminalText`: single-line fields
/// with their breaks as spaces, the text with its breaks as the wrapped layout's own lines.
public struct DetailRenderer: Sendable {
    /// Terminal columns available.
    public var width: Int
    /// Colour on or off.
    public var style: Style
    /// The zone local times are shown in.
    public var timeZone: TimeZone

    /// Creates a renderer.
    public init(width: Int, style: Style, timeZone: TimeZone = .current) {
        self.width = max(20, width)
        self.style = style
        self.timeZone = timeZone
    }

    /// The lines describing `item`.
    public func lines(for item: ResultItem) -> [String] {
        var lines: [String] = []
        let tweet = item.tweet
        // A tweet outside the numbered list (looked up by id) has no number to show.
        var header = item.number > 0 ? style.number("#\(item.number)") + " " : ""
        if let author = item.author {
            header += style.bold(Self.field(author.name)) + " " + style.handle(Self.field("@" + author.username))
            if author.verified { header += " ✓" }
        } else {
            header += style.handle("@" + (tweet.authorID.map { "id:\($0)" } ?? "unknown"))
        }
        lines.append(header)
        lines.append(
            style.dim(
                RelativeTime.local(tweet.createdAt, timeZone: timeZone)
                    + (tweet.lang.map { " · \(Self.field($0))" } ?? "")
            ))
        if let retweeted = item.retweetedAuthor {
            lines.append(style.dim("Retweet of " + Self.field("@" + retweeted.username)))
        }
        if let handle = item.replyToHandle {
            lines.append(
                style.dim("↳ replying to " + Self.field("@" + handle))
                    + (tweet.repliedToID.map { style.dim(" (tweet \($0))") } ?? ""))
        } else if let repliedTo = tweet.repliedToID {
            lines.append(style.dim("↳ replying to tweet \(repliedTo)"))
        }
        lines.append("")
        for line in Self.wrapped(item.text, width: width - 2) {
            lines.append("  " + line)
        }
        if let quoted = item.quoted {
            lines.append("")
            let who = quoted.author.map { Self.field("@" + $0.username) } ?? "a tweet"
            lines.append("  " + style.dim("┃ quoting \(who):"))
            for line in Self.wrapped(quoted.text, width: width - 4) {
                lines.append("  " + style.dim("┃ ") + line)
            }
        }
        lines.append("")
        if let m = tweet.metrics {
            var parts = ["♥ \(m.likes)", "⟲ \(m.retweets)", "↩ \(m.replies)", "❝ \(m.quotes)"]
            if let impressions = m.impressions { parts.append("👁 \(impressions)") }
            lines.append(parts.joined(separator: "  "))
        }
        // A retweet's own entities end where X cut its text; the original's are complete.
        let entities = (item.retweeted ?? tweet).entities
        let urls = entities.urls.compactMap { $0.expandedURL ?? $0.url }
        if !urls.isEmpty {
            lines.append("Links: " + urls.map { style.link(Self.field($0)) }.joined(separator: " "))
        }
        let tags = entities.hashtags.map { "#" + $0.tag }
        if !tags.isEmpty {
            lines.append("Tags: " + tags.map { style.tag(Self.field($0)) }.joined(separator: " "))
        }
        let mentions = entities.mentions.map { "@" + $0.username }
        if !mentions.isEmpty {
            lines.append("Mentions: " + mentions.map { style.handle(Self.field($0)) }.joined(separator: " "))
        }
        for media in item.media {
            let address = media.url ?? media.previewImageURL ?? media.mediaKey
            lines.append(
                Self.field("Media: \(media.kind.rawValue) \(address)" + (media.altText.map { " — \($0)" } ?? "")))
        }
        lines.append(style.link(Self.field(item.url)))
        return lines
    }

    /// A one-line field made safe: line breaks become spaces, isolates are closed.
    static func field(_ text: String) -> String {
        DisplayWidth.isolated(TerminalText.safe(text, lineBreak: " "))
    }

    /// Text made safe, then wrapped; each line's isolates balanced on their own, since wrapping may split a pair.
    static func wrapped(_ text: String, width: Int) -> [String] {
        DisplayWidth.wrap(TerminalText.safe(text), width: width).map {
            DisplayWidth.isolated(TerminalText.balanced($0))
        }
    }
}
