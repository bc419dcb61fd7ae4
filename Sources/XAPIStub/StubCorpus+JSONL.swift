import Foundation
import TweetKit

extension StubCorpus {
    /// Why a JSONL corpus file could not be loaded: the line and what was wrong with it.
    public struct LoadError: Error, CustomStringConvertible {
        /// The 1-based line number.
        public var line: Int
        /// What was wrong.
        public var message: String
        /// `line N: message`.
        public var description: String { "line \(line): \(message)" }
    }

    /// A corpus from a JSONL collection (twarc2 pages, flattened tweets, lookups; whatever TweetKit reads), so an
    /// end-to-end test can serve its own fixtures. Tweets, included tweets, users and media are merged by id, and their
    /// JSON is kept so the stub serves every field the file holds.
    public init(jsonl data: Data) throws {
        var tweets: [TweetID: Tweet] = [:]
        var users: [UserID: User] = [:]
        var media: [String: Media] = [:]
        var order: [TweetID] = []
        var originals = Originals()
        for (index, line) in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let page: Page?
            do {
                page = try CollectionLineDecoder.decode(line: Data(line), keepOriginals: true)
            } catch {
                throw LoadError(line: index + 1, message: "\(error)")
            }
            guard let page else { continue }
            for tweet in page.tweets + page.includedTweets where tweets[tweet.id] == nil {
                tweets[tweet.id] = tweet
                order.append(tweet.id)
            }
            for user in page.users { users[user.id] = user }
            for item in page.media { media[item.mediaKey] = item }
            var kept = page.originals
            kept.twarc = nil
            kept.meta = nil
            kept.tweetTwarc = [:]
            originals.merge(kept)
        }
        self.init(
            tweets: order.compactMap { tweets[$0] }, users: users.values.sorted { $0.id < $1.id },
            media: media.values.sorted { $0.mediaKey < $1.mediaKey })
        self.originals = originals
    }
}
