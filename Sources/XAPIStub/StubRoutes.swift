import Foundation
import TweetKit

/// What the stub sends back for one request.
struct StubResponse {
    var status: Int
    var headers: [(String, String)] = []
    var body: Data = Data()
    /// Seconds to hold the response back.
    var delay: Double = 0
    /// Send half the body under a full `Content-Length`, then close.
    var truncate = false
    /// Close without answering.
    var closeWithoutResponse = false

    static func json(_ status: Int, _ object: Any) -> StubResponse {
        StubResponse(
            status: status, headers: [("Content-Type", "application/json; charset=utf-8")],
            body: StubJSON.encode(object))
    }

    static func problem(_ status: Int, title: String, detail: String, type: String = "about:blank") -> StubResponse {
        json(status, ["title": title, "detail": detail, "type": type, "status": status])
    }

    static func invalidRequest(parameter: String, value: String, message: String) -> StubResponse {
        json(
            400,
            [
                "errors": [["parameters": [parameter: [value]], "message": message]],
                "title": "Invalid Request", "detail": "One or more parameters to your request was invalid.",
                "type": "https://api.twitter.com/2/problems/invalid-request",
            ])
    }
}

/// The contract's endpoints over a corpus. Stateless apart from what it is handed; the server owns the state.
struct StubRoutes {
    var corpus: StubCorpus

    /// The path template a request counts against, for rate-limit headers; nil for an unknown path.
    static func endpoint(method: String, path: String) -> String? {
        let parts = path.split(separator: "/").map(String.init)
        switch (method, parts.count) {
        case ("POST", _) where path == "/oauth2/token": return "POST /oauth2/token"
        case ("POST", _) where path == "/oauth2/invalidate_token": return "POST /oauth2/invalidate_token"
        case ("GET", 4) where path == "/2/tweets/search/recent": return "GET /2/tweets/search/recent"
        case ("GET", 4) where path == "/2/tweets/search/all": return "GET /2/tweets/search/all"
        case ("GET", 4) where path == "/2/tweets/counts/recent": return "GET /2/tweets/counts/recent"
        case ("GET", 4) where path == "/2/tweets/counts/all": return "GET /2/tweets/counts/all"
        case ("GET", 2) where path == "/2/tweets": return "GET /2/tweets"
        case ("GET", 5) where path == "/2/tweets/search/stream/rules": return "GET /2/tweets/search/stream/rules"
        case ("POST", 5) where path == "/2/tweets/search/stream/rules": return "POST /2/tweets/search/stream/rules"
        case ("GET", 3) where parts[1] == "tweets": return "GET /2/tweets/:id"
        case ("GET", 5) where parts[1] == "users" && parts[2] == "by" && parts[3] == "username":
            return "GET /2/users/by/username/:username"
        case ("GET", 4) where parts[1] == "users" && parts[3] == "tweets": return "GET /2/users/:id/tweets"
        default: return nil
        }
    }

    func handle(_ request: RecordedRequest, endpoint: String) -> StubResponse {
        let parts = request.path.split(separator: "/").map(String.init)
        switch endpoint {
        case "GET /2/tweets/search/recent": return search(request, maxLimit: 100)
        case "GET /2/tweets/search/all": return search(request, maxLimit: 500)
        case "GET /2/tweets/counts/recent", "GET /2/tweets/counts/all": return counts(request)
        case "GET /2/tweets": return lookup(request)
        case "GET /2/tweets/:id": return lookupOne(parts[2], request: request)
        case "GET /2/users/by/username/:username": return userByName(parts[4], request: request)
        case "GET /2/users/:id/tweets": return timeline(parts[2], request: request)
        default: return StubResponse(status: 404)
        }
    }

    // MARK: Endpoints

    private func search(_ request: RecordedRequest, maxLimit: Int) -> StubResponse {
        let query = request.query
        guard let text = query["query"], !text.isEmpty else {
            return .invalidRequest(
                parameter: "query", value: "", message: "The `query` query parameter can not be empty")
        }
        let parsed: StubQuery
        do {
            parsed = try StubQuery.parse(text)
        } catch let error as StubQuery.ParseError {
            return .invalidRequest(
                parameter: "query", value: text,
                message: "There were errors processing your request: \(error.message) (at position \(error.position))")
        } catch {
            return StubResponse(status: 500)
        }
        if query["next_token"] != nil && query["pagination_token"] != nil {
            return .invalidRequest(
                parameter: "next_token", value: query["next_token"]!,
                message: "Only one of `next_token` and `pagination_token` may be given")
        }
        let limit: Int
        switch intParameter(query, "max_results", range: 10...maxLimit, default: 10) {
        case .success(let value): limit = value
        case .failure(let failure): return failure.response
        }
        var matches = corpus.tweets.filter { parsed.matches($0, in: corpus) }
        if let since = query["since_id"].flatMap({ TweetID($0) }) { matches = matches.filter { $0.id > since } }
        if let until = query["until_id"].flatMap({ TweetID($0) }) { matches = matches.filter { $0.id < until } }
        for (name, keep) in [
            ("start_time", { (a: Date, b: Date) in a >= b }), ("end_time", { (a: Date, b: Date) in a < b }),
        ] {
            guard let value = query[name] else { continue }
            guard let bound = ISO8601DateFormatter().date(from: value) else {
                return .invalidRequest(
                    parameter: name, value: value,
                    message: "Invalid '\(name)':'\(value)'. '\(name)' must be in the format YYYY-MM-DDTHH:mm:ssZ")
            }
            matches = matches.filter { tweet in tweet.createdAt.map { keep($0, bound) } ?? false }
        }
        matches.sort { $0.id > $1.id }
        let token = query["next_token"] ?? query["pagination_token"]
        return page(
            of: matches, token: token, tokenName: "next_token", prefix: "nt", limit: limit, request: request,
            previous: false)
    }

    private func lookup(_ request: RecordedRequest) -> StubResponse {
        let raw = request.query["ids"] ?? ""
        let ids = raw.split(separator: ",").map(String.init)
        guard (1...100).contains(ids.count) else {
            return .invalidRequest(
                parameter: "ids", value: raw,
                message:
                    "The number of values in the `ids` query parameter list [\(ids.count)] is not between 1 and 100")
        }
        if let bad = ids.first(where: { TweetID($0) == nil }) {
            return .invalidRequest(
                parameter: "ids", value: bad,
                message: "The `ids` query parameter value [\(bad)] does not match ^[0-9]{1,19}$")
        }
        var found: [Tweet] = []
        var errors: [[String: Any]] = []
        for id in ids {
            if let tweet = TweetID(id).flatMap({ corpus.tweet($0) }) {
                found.append(tweet)
            } else {
                errors.append(StubJSON.notFound(value: id, resourceType: "tweet", parameter: "ids"))
            }
        }
        return tweetsBody(found, request: request, extraErrors: errors, meta: nil, single: false)
    }

    private func lookupOne(_ id: String, request: RecordedRequest) -> StubResponse {
        guard let tweetID = TweetID(id) else {
            return .invalidRequest(
                parameter: "id", value: id,
                message: "The `id` query parameter value [\(id)] does not match ^[0-9]{1,19}$")
        }
        guard let tweet = corpus.tweet(tweetID) else {
            return .json(200, ["errors": [StubJSON.notFound(value: id, resourceType: "tweet", parameter: "id")]])
        }
        return tweetsBody([tweet], request: request, extraErrors: [], meta: nil, single: true)
    }

    private func userByName(_ username: String, request: RecordedRequest) -> StubResponse {
        guard username.range(of: "^[A-Za-z0-9_]{1,15}$", options: .regularExpression) != nil else {
            return .invalidRequest(
                parameter: "username", value: username,
                message: "The `username` query parameter value [\(username)] does not match ^[A-Za-z0-9_]{1,15}$")
        }
        guard let user = corpus.user(username: username) else {
            return .json(
                200, ["errors": [StubJSON.notFound(value: username, resourceType: "user", parameter: "username")]])
        }
        return .json(
            200,
            [
                "data": StubJSON.user(
                    user, fields: fields(request, "user.fields"), original: corpus.originals.users[user.id])
            ])
    }

    private func timeline(_ id: String, request: RecordedRequest) -> StubResponse {
        guard let userID = UserID(id) else {
            return .invalidRequest(
                parameter: "id", value: id,
                message: "The `id` query parameter value [\(id)] does not match ^[0-9]{1,19}$")
        }
        guard corpus.user(userID) != nil else {
            return .json(200, ["errors": [StubJSON.notFound(value: id, resourceType: "user", parameter: "id")]])
        }
        let limit: Int
        switch intParameter(request.query, "max_results", range: 5...100, default: 10) {
        case .success(let value): limit = value
        case .failure(let failure): return failure.response
        }
        let exclude = Set((request.query["exclude"] ?? "").split(separator: ",").map(String.init))
        var tweets = corpus.tweets.filter { $0.authorID == userID }
        if exclude.contains("replies") { tweets = tweets.filter { $0.repliedToID == nil } }
        if exclude.contains("retweets") { tweets = tweets.filter { $0.retweetedID == nil } }
        tweets.sort { $0.id > $1.id }
        return page(
            of: tweets, token: request.query["pagination_token"], tokenName: "pagination_token", prefix: "pt",
            limit: limit,
            request: request, previous: true)
    }

    // MARK: Building bodies

    private func page(
        of matches: [Tweet], token: String?, tokenName: String, prefix: String, limit: Int, request: RecordedRequest,
        previous: Bool
    ) -> StubResponse {
        var offset = 0
        if let token {
            guard token.hasPrefix(prefix), let value = Int(token.dropFirst(prefix.count)), value >= 0 else {
                return .invalidRequest(
                    parameter: tokenName, value: token,
                    message: "The `\(tokenName)` query parameter value [\(token)] is not valid")
            }
            offset = value
        }
        let slice = Array(matches.dropFirst(offset).prefix(limit))
        guard !slice.isEmpty else { return .json(200, ["meta": ["result_count": 0]]) }
        var meta: [String: Any] = [
            "result_count": slice.count, "newest_id": slice.first!.id.description,
            "oldest_id": slice.last!.id.description,
        ]
        if offset + limit < matches.count { meta["next_token"] = "\(prefix)\(offset + limit)" }
        if previous, offset > 0 { meta["previous_token"] = "\(prefix)\(max(0, offset - limit))" }
        return tweetsBody(slice, request: request, extraErrors: [], meta: meta, single: false)
    }

    private func tweetsBody(
        _ tweets: [Tweet], request: RecordedRequest, extraErrors: [[String: Any]], meta: [String: Any]?, single: Bool
    ) -> StubResponse {
        var body: [String: Any] = [:]
        let tweetFields = fields(request, "tweet.fields")
        if !tweets.isEmpty {
            let objects = tweets.map {
                StubJSON.tweet($0, fields: tweetFields, original: corpus.originals.tweets[$0.id])
            }
            body["data"] = single ? objects[0] : objects
        }
        let (includes, includeErrors) = self.includes(for: tweets, request: request)
        if !includes.isEmpty { body["includes"] = includes }
        let errors = extraErrors + includeErrors
        if !errors.isEmpty { body["errors"] = errors }
        if let meta { body["meta"] = meta }
        return .json(200, body)
    }

    private func includes(for tweets: [Tweet], request: RecordedRequest) -> ([String: Any], [[String: Any]]) {
        let expansions = fields(request, "expansions")
        var userIDs: [UserID] = []
        var referenced: [Tweet] = []
        var mediaKeys: [String] = []
        var errors: [[String: Any]] = []
        func addUser(_ id: UserID?) { if let id, !userIDs.contains(id) { userIDs.append(id) } }
        for tweet in tweets {
            if expansions.contains("author_id") { addUser(tweet.authorID) }
            if expansions.contains("in_reply_to_user_id") { addUser(tweet.inReplyToUserID) }
            if expansions.contains("entities.mentions.username") {
                for mention in tweet.entities.mentions { addUser(mention.id) }
            }
            if expansions.contains("attachments.media_keys") {
                mediaKeys += tweet.mediaKeys.filter { !mediaKeys.contains($0) }
            }
            if expansions.contains("referenced_tweets.id") {
                for reference in tweet.referencedTweets where !referenced.contains(where: { $0.id == reference.id }) {
                    if let target = corpus.tweet(reference.id) {
                        referenced.append(target)
                        if expansions.contains("referenced_tweets.id.author_id") { addUser(target.authorID) }
                    } else {
                        errors.append(
                            StubJSON.notFound(
                                value: reference.id.description, resourceType: "tweet",
                                parameter: "referenced_tweets.id",
                                section: "includes"))
                    }
                }
            }
        }
        var includes: [String: Any] = [:]
        let users = userIDs.compactMap { corpus.user($0) }
        if !users.isEmpty {
            includes["users"] = users.map {
                StubJSON.user($0, fields: fields(request, "user.fields"), original: corpus.originals.users[$0.id])
            }
        }
        if !referenced.isEmpty {
            includes["tweets"] = referenced.map {
                StubJSON.tweet($0, fields: fields(request, "tweet.fields"), original: corpus.originals.tweets[$0.id])
            }
        }
        let media = mediaKeys.compactMap { key in corpus.media.first { $0.mediaKey == key } }
        if !media.isEmpty {
            includes["media"] = media.map {
                StubJSON.media(
                    $0, fields: fields(request, "media.fields"), original: corpus.originals.media[$0.mediaKey])
            }
        }
        let (places, polls) = StubJSON.placesAndPolls(
            for: tweets + referenced, corpus: corpus, expansions: expansions,
            placeFields: fields(request, "place.fields"), pollFields: fields(request, "poll.fields"))
        if !places.isEmpty { includes["places"] = places }
        if !polls.isEmpty { includes["polls"] = polls }
        return (includes, errors)
    }

    private func fields(_ request: RecordedRequest, _ name: String) -> Set<String> {
        Set((request.query[name] ?? "").split(separator: ",").map { String($0) })
    }

    private func intParameter(
        _ query: [String: String], _ name: String, range: ClosedRange<Int>, default value: Int
    ) -> Result<Int, StubFailure> {
        guard let raw = query[name] else { return .success(value) }
        guard let number = Int(raw), range.contains(number) else {
            return .failure(
                StubFailure(
                    response: .invalidRequest(
                        parameter: name, value: raw,
                        message:
                            "The `\(name)` query parameter value [\(raw)] is not between \(range.lowerBound) and \(range.upperBound)"
                    )))
        }
        return .success(number)
    }
}

/// A response carried through `Result` where a parameter check fails.
struct StubFailure: Error {
    var response: StubResponse
}
