import Foundation
import TweetKit

extension XAPISource {
    /// The most pages one count fetches: the full archive by day is one page per 31 days, so this covers 16 years.
    public static let maximumCountPages = 200

    /// Counts tweets matching `query` over time with `GET /2/tweets/counts/recent` (the last 7 days) or, with
    /// `fullArchive`, `/2/tweets/counts/all`, following `next_token` to the last page.
    ///
    /// The API buckets by minute, hour or day; a week, month or year count asks by day and adds the days up here, in
    /// UTC.
    /// Rate-limit waits, retries and errors are the client's, as for search; cancelling the task stops the paging
    /// (and any wait) at once. `pageFetched` hears the number of pages fetched so far after each one.
    public func countByTime(
        _ query: String, granularity: CountGranularity, since: Date?, until: Date?, fullArchive: Bool,
        pageFetched: (@Sendable (Int) -> Void)? = nil
    ) async throws -> CountSeries {
        var request = try Self.translated(SearchRequest(query: query, startTime: since, endTime: until))
        request.fullArchive = fullArchive
        let text = request.query.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else {
            throw XAPIError.invalidRequest("The count query is empty: give words or operators.")
        }
        let path = fullArchive ? "/2/tweets/counts/all" : "/2/tweets/counts/recent"
        var items = [
            URLQueryItem(name: "query", value: text),
            URLQueryItem(name: "granularity", value: granularity.apiValue ?? CountGranularity.day.rawValue),
        ]
        if let start = request.startTime {
            items.append(URLQueryItem(name: "start_time", value: XAPIFields.timestamp(start)))
        }
        if let end = request.endTime { items.append(URLQueryItem(name: "end_time", value: XAPIFields.timestamp(end))) }
        var counter = BucketCounter(granularity: granularity)
        var reported = 0
        var token: String?
        var pages = 0
        repeat {
            try Task.checkCancellation()
            let query = items + (token.map { [URLQueryItem(name: "next_token", value: $0)] } ?? [])
            let data = try await client.get(path, endpoint: "GET \(path)", query: query)
            let page: CountsPage
            do {
                page = try JSONDecoder().decode(CountsPage.self, from: data)
            } catch {
                throw XAPIError.malformedResponse(endpoint: "GET \(path)", reason: "\(error)")
            }
            for bucket in page.data ?? [] {
                guard let start = Self.milliseconds(bucket.start) else {
                    throw XAPIError.malformedResponse(
                        endpoint: "GET \(path)", reason: "a count's start '\(bucket.start.prefix(40))' is not a time")
                }
                counter.add(bucketStart: start, count: bucket.tweetCount)
            }
            reported += page.meta?.totalTweetCount ?? 0
            pages += 1
            pageFetched?(pages)
            token = page.meta?.nextToken
        } while token != nil && pages < Self.maximumCountPages
        let since = request.startTime.map { Int64(($0.timeIntervalSince1970 * 1000).rounded(.down)) }
        let until = request.endTime.map { Int64(($0.timeIntervalSince1970 * 1000).rounded(.up)) }
        return CountSeries(
            query: query, granularity: granularity, buckets: try counter.buckets(since: since, until: until),
            sourceName: name, reportedTotal: reported)
    }

    private static func milliseconds(_ text: String) -> Int64? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return Int64((date.timeIntervalSince1970 * 1000).rounded()) }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text).map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) }
    }
}

/// One page of the counts endpoints: `{"data":[{"start","end","tweet_count"}],"meta":{"total_tweet_count",
/// "next_token"}}`.
private struct CountsPage: Decodable {
    struct Bucket: Decodable {
        var start: String
        var end: String
        var tweetCount: Int

        enum CodingKeys: String, CodingKey {
            case start, end
            case tweetCount = "tweet_count"
        }
    }
    struct Meta: Decodable {
        var totalTweetCount: Int?
        var nextToken: String?

        enum CodingKeys: String, CodingKey {
            case totalTweetCount = "total_tweet_count"
            case nextToken = "next_token"
        }
    }
    var data: [Bucket]?
    var meta: Meta?
}
