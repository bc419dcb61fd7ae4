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

    /// The text with HTML entities decoded, for when no page is at hand.
    public var decodedText: String { HTMLEntities.decode(text) }

    /// The handle in a retweet's `RT @user: ` prefix.
    var retweetedUsernameFromText: String? {
        guard text.hasPrefix("RT @") else { return nil }
        let handle = text.dropFirst(4).prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        return handle.isEmpty ? nil : String(handle)
    }
}
