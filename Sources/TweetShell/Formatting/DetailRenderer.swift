import Foundation
import TweetKit

/// Renders one tweet in full for `show` and `format detail`: author, local time, text wrapped to the width,
/// metrics, links, tags, reply and quote context, and the tweet's URL.
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
        var header = style.number("#\(item.number)") + " "
        if let author = item.author {
            header += style.bold(author.name) + " " + style.handle("@" + author.username)
            if author.verified { header += " ✓" }
        } else {
            header += style.handle("@" + (tweet.authorID.map { "id:\($0)" } ?? "unknown"))
        }
        lines.append(header)
        lines.append(
            style.dim(RelativeTime.local(tweet.createdAt, timeZone: timeZone) + (tweet.lang.map { " · \($0)" } ?? "")))
        if let retweeted = item.retweetedAuthor {
            lines.append(style.dim("Retweet of @\(retweeted.username)"))
        }
        if let handle = item.replyToHandle {
            lines.append(
                style.dim("↳ replying to @\(handle)") + (tweet.repliedToID.map { style.dim(" (tweet \($0))") } ?? ""))
        } else if let repliedTo = tweet.repliedToID {
            lines.append(style.dim("↳ replying to tweet \(repliedTo)"))
        }
        lines.append("")
        for line in DisplayWidth.wrap(item.text, width: width - 2) {
            lines.append("  " + DisplayWidth.isolated(line))
        }
        if let quoted = item.quoted {
            lines.append("")
            let who = quoted.author.map { "@\($0.username)" } ?? "a tweet"
            lines.append("  " + style.dim("┃ quoting \(who):"))
            for line in DisplayWidth.wrap(quoted.text, width: width - 4) {
                lines.append("  " + style.dim("┃ ") + DisplayWidth.isolated(line))
            }
        }
        lines.append("")
        if let m = tweet.metrics {
            var parts = ["♥ \(m.likes)", "⟲ \(m.retweets)", "↩ \(m.replies)", "❝ \(m.quotes)"]
            if let impressions = m.impressions { parts.append("👁 \(impressions)") }
            lines.append(parts.joined(separator: "  "))
        }
        let urls = tweet.entities.urls.compactMap { $0.expandedURL ?? $0.url }
        if !urls.isEmpty {
            lines.append("Links: " + urls.map { style.link($0) }.joined(separator: " "))
        }
        let tags = tweet.entities.hashtags.map { "#" + $0.tag }
        if !tags.isEmpty {
            lines.append("Tags: " + tags.map { style.tag($0) }.joined(separator: " "))
        }
        let mentions = tweet.entities.mentions.map { "@" + $0.username }
        if !mentions.isEmpty {
            lines.append("Mentions: " + mentions.map { style.handle($0) }.joined(separator: " "))
        }
        for media in item.media {
            let address = media.url ?? media.previewImageURL ?? media.mediaKey
            lines.append("Media: \(media.kind.rawValue) \(address)" + (media.altText.map { " — \($0)" } ?? ""))
        }
        lines.append(style.link(item.url))
        return lines
    }
}
