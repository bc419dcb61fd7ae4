import Foundation
import TweetKit

/// What a batch's records decoded to, before a store prepares the pages for its writer: the pages, and what the rest
/// of the records were. Both stores' imports decode through `decode(_:_:)`, so they count and name records alike.
package struct DecodedRecords: Sendable {
    /// The pages of the records that held tweets (or other objects), in record order.
    package var pages: [Page] = []
    /// Result tweets in `pages`.
    package var tweets = 0
    /// Records that decoded to nothing to store.
    package var skipped = 0
    /// Records the decoder rejected that are not recognisably anything else: line, message, start of the record.
    package var failures: [(line: Int, message: String, excerpt: String)] = []
    /// Records holding something other than tweets, by what they hold.
    package var notTweets: [String: Int] = [:]

    /// Nothing decoded.
    package init() {}

    /// Decodes records (each with the line it starts on). A record the decoder rejects is named when it is
    /// recognisably something other than tweets (a page of users), and counted as malformed otherwise.
    package static func decode(
        _ records: some Sequence<(number: Int, data: Data)>, _ decodeLine: (Data) throws -> Page?
    ) -> DecodedRecords {
        var result = DecodedRecords()
        for record in records {
            do {
                if let page = try decodeLine(record.data) {
                    // Only a page that decoded: its results are stored, so later copies of them are left out.
                    KnownResults.current?.insert(contentsOf: page.tweets.map { $0.id.rawValue })
                    result.pages.append(page)
                    result.tweets += page.tweets.count
                    if page.tweets.isEmpty, !page.users.isEmpty {
                        result.notTweets[TweetStore.nonTweetName(record.data) ?? "a user", default: 0] += 1
                    }
                } else {
                    result.skipped += 1
                }
            } catch {
                if let name = TweetStore.nonTweetName(record.data) {
                    result.notTweets[name, default: 0] += 1
                } else {
                    result.failures.append(
                        (
                            record.number, String(describing: error),
                            String(decoding: record.data.prefix(200), as: UTF8.self)
                        ))
                }
            }
        }
        return result
    }
}
