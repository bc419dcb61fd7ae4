import Foundation

/// What `top` ranks.
public enum TopKind: String, CaseIterable, Sendable {
    /// Hashtags, case folded.
    case hashtags
    /// Mentioned accounts.
    case mentions
    /// Authors.
    case authors
    /// Domains of the expanded URLs.
    case domains
    /// Languages X detected.
    case langs
    /// Words of the text, without stop words, URLs, mentions and hashtags.
    case words

    /// The query term that narrows a search to one ranked key: `#tag`, `@user`, `from:user`, `url:domain`,
    /// `lang:xx`, or the word (quoted when it is not a plain word).
    public func queryTerm(for key: String) -> String {
        switch self {
        case .hashtags: return "#" + key
        case .mentions: return "@" + key
        case .authors: return "from:" + key
        case .domains: return "url:" + Self.quotedIfNeeded(key)
        case .langs: return "lang:" + key
        case .words: return Self.quotedIfNeeded(key)
        }
    }

    /// `queryTerm(for:)` when the query parser reads it back as that one term and key, else nil: a key from
    /// hostile or odd data (an author named `not a handle!`, a tag with a space) would otherwise become a query for
    /// something else and find the wrong tweets or none.
    public func searchableTerm(for key: String) -> String? {
        let term = queryTerm(for: key)
        guard let parsed = try? SearchQuery(parsing: term), case .term(let read) = parsed.root else { return nil }
        let value: String?
        switch (self, read) {
        case (.hashtags, .hashtag(let tag)): value = tag
        case (.mentions, .mention(let name)), (.authors, .from(let name)): value = name
        case (.domains, .url(let domain)): value = domain
        case (.langs, .lang(let code)): value = code
        case (.words, .keyword(let word)), (.words, .phrase(let word)): value = word
        default: value = nil
        }
        return value?.lowercased() == key.lowercased() ? term : nil
    }

    private static func quotedIfNeeded(_ word: String) -> String {
        let plain = word.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || $0 == "_" }
        return plain && !["or", "and", "not"].contains(word)
            ? word
            : "\"" + word.replacingOccurrences(of: "\"", with: "")
                + "\""
    }
}

/// One ranked key and how many tweets have it.
public struct TopRow: Equatable, Hashable, Sendable {
    /// The key as shown (`swiftlang`, `example.com`, `en`); the kind's `queryTerm` turns it into a query.
    public var key: String
    /// Tweets having it (a tweet with a hashtag twice counts once).
    public var count: Int

    /// Creates a row.
    public init(key: String, count: Int) {
        self.key = key
        self.count = count
    }
}

/// A ranked list, with what it ranked over so `drill N` can narrow it.
public struct TopList: Equatable, Sendable {
    /// What was ranked.
    public var kind: TopKind
    /// The query ranked over (empty: the whole store, or the current results when `overResults`).
    public var query: String
    /// The rows, most first; equal counts by key.
    public var rows: [TopRow]
    /// Tweets looked at.
    public var tweets: Int
    /// Whether the list ranked the current results rather than a query's matches.
    public var overResults: Bool
    /// The name of the source the ranked tweets came from (`local`, `x`), so `drill N` searches there; nil for the
    /// session's current source.
    public var sourceName: String?
    /// The local collection the ranked tweets came from, so `drill N` stays inside it; nil for every collection.
    public var collection: String?

    /// Creates a list.
    public init(kind: TopKind, query: String, rows: [TopRow], tweets: Int, overResults: Bool = false) {
        self.kind = kind
        self.query = query
        self.rows = rows
        self.tweets = tweets
        self.overResults = overResults
    }

    /// What `drill N` can do with row N.
    public enum Drill: Equatable, Sendable {
        /// Run this search: the list's query narrowed to the row's key.
        case query(String)
        /// There is no row N.
        case noRow
        /// The row's key cannot be written as a query term that means it (see `TopKind.searchableTerm`).
        case unsearchable(key: String)
    }

    /// What `drill N` runs for row `number` (1-based).
    public func drill(_ number: Int) -> Drill {
        guard number >= 1, number <= rows.count else { return .noRow }
        let key = rows[number - 1].key
        guard let term = kind.searchableTerm(for: key) else { return .unsearchable(key: key) }
        let base = query.trimmingCharacters(in: .whitespaces)
        return .query(base.isEmpty ? term : "(\(base)) \(term)")
    }

    /// The query `drill N` runs, or nil when it runs none (no such row, or a key no query can name).
    public func drillQuery(_ number: Int) -> String? {
        guard case .query(let query) = drill(number) else { return nil }
        return query
    }
}

/// Counts keys of one kind over tweets, a tweet counting once per key.
public struct TopCounter: Sendable {
    /// What is counted.
    public let kind: TopKind
    private var counts: [String: Int] = [:]
    /// Tweets added.
    public private(set) var tweets = 0

    /// Creates an empty counter.
    public init(kind: TopKind) { self.kind = kind }

    /// Counts one tweet; `author` is its author's username when known.
    public mutating func add(_ tweet: Tweet, author: String?) {
        tweets += 1
        for key in Set(Self.keys(kind, of: tweet, author: author)) { counts[key, default: 0] += 1 }
    }

    /// Adds `count` tweets having `key` (a count the store made in SQL).
    public mutating func add(key: String, count: Int) {
        counts[key, default: 0] += count
    }

    /// Adds to the number of tweets looked at without counting keys (tweets the store skipped for having none).
    public mutating func addTweets(_ count: Int) { tweets += count }

    /// The `limit` most frequent keys, most first, ties by key.
    public func ranked(limit: Int) -> [TopRow] {
        counts.map { TopRow(key: $0.key, count: $0.value) }
            .sorted { $0.count != $1.count ? $0.count > $1.count : $0.key < $1.key }
            .prefix(limit).map { $0 }
    }

    /// The keys a tweet has, each once or more (the caller folds repeats).
    public static func keys(_ kind: TopKind, of tweet: Tweet, author: String?) -> [String] {
        switch kind {
        case .hashtags: return tweet.entities.hashtags.map { $0.tag.lowercased() }
        case .mentions: return tweet.entities.mentions.map { $0.username.lowercased() }
        case .authors: return author.map { [$0.lowercased()] } ?? []
        case .domains: return tweet.entities.urls.compactMap { domain(of: $0.expandedURL ?? $0.url) }
        case .langs: return tweet.lang.map { [$0.lowercased()] } ?? []
        case .words: return TweetWords.words(in: tweet.text, lang: tweet.lang)
        }
    }

    /// The host of a URL, lowercased and without `www.`; nil when it has none.
    public static func domain(of url: String) -> String? {
        guard let host = URLComponents(string: url)?.host?.lowercased(), !host.isEmpty else { return nil }
        return host.hasPrefix("www.") ? String(host.dropFirst(4)) : host
    }
}
