import Foundation
import StreamCore
import TweetKit
import XAPI

/// A rule of the filtered stream as gap recovery needs it: the query it stands for and its tag.
public struct ActiveRule: Hashable, Sendable {
    /// The rule's id.
    public var id: String
    /// The rule as written, in X's query syntax.
    public var value: String
    /// Its tag, if any.
    public var tag: String?

    /// Creates a rule.
    public init(id: String, value: String, tag: String?) {
        self.id = id
        self.value = value
        self.tag = tag
    }
}

/// Where the active rules come from: the rules endpoint in the shell (`rules list` serves the same), a fixed list in
/// tests of the recovery itself.
public protocol ActiveRulesSource: Sendable {
    /// The rules in force now.
    func activeRules() async throws -> [ActiveRule]
}

/// Reads the active rules with `GET /2/tweets/search/stream/rules` (the rules client `rules list` uses).
public struct XAPIActiveRules: ActiveRulesSource {
    /// The client to ask.
    public let client: XAPIClient

    /// Creates the reader.
    public init(client: XAPIClient) { self.client = client }

    /// The rules the endpoint lists (none: an empty list).
    public func activeRules() async throws -> [ActiveRule] {
        try await client.streamRules().map { ActiveRule(id: $0.id, value: $0.value, tag: $0.tag) }
    }
}

/// Gap recovery over the X API: for each active rule, a recent search from `since` to `until` (exclusive ids),
/// through every page; each tweet found comes back as a streamed tweet matched by that rule.
public enum GapRecoverySearch {
    /// The recovery the reconnecting stream runs after a reconnect.
    public static func recovery(rules: any ActiveRulesSource, source: XAPISource) -> GapRecovery {
        { since, until in
            TaskPublisher { () async throws -> [StreamedTweet] in
                try await recover(rules: rules, source: source, since: since, until: until)
            }
            .eraseToAnyPublisher()
        }
    }

    static func recover(rules: any ActiveRulesSource, source: XAPISource, since: TweetID, until: TweetID)
        async throws -> [StreamedTweet]
    {
        var found: [TweetID: StreamedTweet] = [:]
        for rule in try await rules.activeRules() {
            var request = SearchRequest(query: rule.value, pageSize: 100, sinceID: since, untilID: until)
            request.sort = .recency
            var cursor: String?
            repeat {
                let page = try await source.search(request, cursor: cursor, policy: .network).page
                for tweet in page.tweets {
                    let matched = MatchedRule(id: rule.id, tag: rule.tag)
                    found[tweet.id] = streamed(tweet, of: page, rules: (found[tweet.id]?.rules ?? []) + [matched])
                }
                cursor = page.nextToken
            } while cursor != nil
        }
        return found.values.sorted { $0.id < $1.id }
    }

    /// One tweet of a search page as the stream would have sent it: the tweet, its author, and their JSON as sent,
    /// with the rules whose searches found it as its `matching_rules`. The store keeps those rules with the search
    /// page's `__twarc` (where and when the tweet was really fetched).
    static func streamed(_ tweet: Tweet, of page: Page, rules: [MatchedRule]) -> StreamedTweet {
        var single = Page(tweets: [tweet])
        if let author = page.user(tweet.authorID) { single.users = [author] }
        single.includedTweets = page.includedTweets.filter { included in
            tweet.referencedTweets.contains { $0.id == included.id }
        }
        single.originals.tweets[tweet.id] = page.originals.tweets[tweet.id]
        if let author = tweet.authorID { single.originals.users[author] = page.originals.users[author] }
        for included in single.includedTweets {
            single.originals.tweets[included.id] = page.originals.tweets[included.id]
        }
        var line = "{\"data\":" + (page.originals.tweets[tweet.id]?.text ?? "{\"id\":\"\(tweet.id)\"}")
        if let author = tweet.authorID, let user = page.originals.users[author] {
            line += ",\"includes\":{\"users\":[" + user.text + "]}"
        }
        let ruleObjects = rules.map { rule in
            "{\"id\":" + jsonString(rule.id) + (rule.tag.map { ",\"tag\":" + jsonString($0) } ?? "") + "}"
        }
        let matchingRules = "[" + ruleObjects.joined(separator: ",") + "]"
        single.originals.twarc = LineBlock.block(
            twarc: page.originals.twarc, matchingRules: OriginalJSON(matchingRules))
        line += ",\"matching_rules\":" + matchingRules + "}"
        return StreamedTweet(page: single, rules: rules, line: Array(line.utf8), recovered: true)
    }

    static func jsonString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
