import Foundation

extension Tweet {
    /// The text as a person should read it: HTML entities decoded, and for a retweet, `RT @user: ` followed by the
    /// original's full text when `page` holds the original (the API truncates a retweet's own `text`).
    ///
    /// Falls back to the tweet's own decoded text when the original is not in the page, as in archives, which keep
    /// only the `RT @x: …` text.
    public func displayText(in page: Page) -> String {
        if let originalID = retweetedID, let original = page.tweet(originalID), original.id != id {
            let username = page.user(original.authorID)?.username ?? retweetedUsernameFromText
            let body = HTMLEntities.decode(original.text)
            if let username { return "RT @\(username): \(body)" }
            return body
        }
        return HTMLEntities.decode(text)
    }

    /// `displayText(in:)`, with each `t.co` link replaced by where it leads when `expandingLinks` is true, which is
    /// what a terminal should show: the destination is readable and clickable, the shortener is neither.
    ///
    /// Links are found by their `t.co` text rather than by offsets, so this holds even where offsets and escaping
    /// disagree. A link without an `expanded_url` stays as it is.
    public func displayText(in page: Page, expandingLinks: Bool) -> String {
        var text = displayText(in: page)
        guard expandingLinks else { return text }
        let source = retweetedID.flatMap { page.tweet($0) } ?? self
        for link in source.entities.urls + (source.id == id ? [] : entities.urls) {
            guard let expanded = link.expandedURL, !link.url.isEmpty, link.url != expanded else { continue }
            text = text.replacingOccurrences(of: link.url, with: expanded)
        }
        return text
    }

    /// The text with HTML entities decoded, for when no page is at hand.
    public var decodedText: String { HTMLEntities.decode(text) }

    /// The handle in a retweet's `RT @user: ` prefix.
    public var retweetedUsernameFromText: String? {
        guard text.hasPrefix("RT @") else { return nil }
        let handle = text.dropFirst(4).prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        return handle.isEmpty ? nil : String(handle)
    }
}
