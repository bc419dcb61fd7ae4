import Foundation
import TweetKit

extension StubRoutes {
    /// Buckets per page, as the API pages counts: 31 days, 168 hours or 1,440 minutes.
    static func countBucketsPerPage(_ granularity: String) -> Int {
        switch granularity {
        case "day": return 31
        case "minute": return 1_440
        default: return 168
        }
    }

    /// `GET /2/tweets/counts/recent` and `/2/tweets/counts/all`: the matching tweets counted in UTC buckets of
    /// `granularity` (minute, hour or day; hour by default) from `start_time` (or the first match) to `end_time` (or
    /// just after the last), empty buckets included, paged by `next_token`, with `meta.total_tweet_count` for the
    /// page.
    func counts(_ request: RecordedRequest) -> StubResponse {
        let query = request.query
        guard let text = query["query"], !text.isEmpty else {
            return .invalidRequest(
                parameter: "query", value: "", message: "The `query` query parameter can not be empty")
        }
        guard let parsed = try? StubQuery.parse(text) else {
            return .invalidRequest(
                parameter: "query", value: text, message: "There were errors processing your request")
        }
        let granularity = query["granularity"] ?? "hour"
        let width: Int64
        switch granularity {
        case "minute": width = 60_000
        case "hour": width = 3_600_000
        case "day": width = 86_400_000
        default:
            return .invalidRequest(
                parameter: "granularity", value: granularity,
                message: "The `granularity` query parameter value [\(granularity)] is not one of [minute,hour,day]")
        }
        var bounds: [String: Int64] = [:]
        for name in ["start_time", "end_time"] {
            guard let value = query[name] else { continue }
            guard let date = ISO8601DateFormatter().date(from: value) else {
                return .invalidRequest(
                    parameter: name, value: value,
                    message: "Invalid '\(name)':'\(value)'. '\(name)' must be in the format YYYY-MM-DDTHH:mm:ssZ")
            }
            bounds[name] = Int64((date.timeIntervalSince1970 * 1000).rounded())
        }
        let times = corpus.tweets.filter { parsed.matches($0, in: corpus) }.compactMap { tweet -> Int64? in
            guard let date = tweet.createdAt else { return nil }
            let time = Int64((date.timeIntervalSince1970 * 1000).rounded())
            if let start = bounds["start_time"], time < start { return nil }
            if let end = bounds["end_time"], time >= end { return nil }
            return time
        }
        func floor(_ time: Int64) -> Int64 { time >= 0 ? time / width * width : ((time + 1) / width - 1) * width }
        guard let first = bounds["start_time"].map(floor) ?? times.min().map(floor),
            let end = bounds["end_time"] ?? times.max().map({ floor($0) + width })
        else {
            return .json(200, ["data": [[String: Any]](), "meta": ["total_tweet_count": 0]])
        }
        var perBucket: [Int64: Int] = [:]
        for time in times { perBucket[floor(time), default: 0] += 1 }
        var starts: [Int64] = []
        var start = first
        while start < end {
            starts.append(start)
            start += width
        }
        let perPage = Self.countBucketsPerPage(granularity)
        let offset = query["next_token"].flatMap { $0.hasPrefix("ct") ? Int($0.dropFirst(2)) : nil } ?? 0
        if let token = query["next_token"], !token.hasPrefix("ct") || offset > starts.count {
            return .invalidRequest(
                parameter: "next_token", value: token, message: "The `next_token` query parameter value is invalid")
        }
        let slice = starts[offset..<min(starts.count, offset + perPage)]
        let data: [[String: Any]] = slice.map { start in
            [
                "start": Self.iso(start), "end": Self.iso(min(start + width, end)),
                "tweet_count": perBucket[start] ?? 0,
            ]
        }
        var meta: [String: Any] = ["total_tweet_count": slice.reduce(0) { $0 + (perBucket[$1] ?? 0) }]
        if offset + perPage < starts.count { meta["next_token"] = "ct\(offset + perPage)" }
        return .json(200, ["data": data, "meta": meta])
    }

    private static func iso(_ milliseconds: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }
}
