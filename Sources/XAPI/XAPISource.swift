import Foundation
import Synchronization
import TweetKit

/// The X API as a `TweetSource`: search (recent or full archive), lookup, user timelines and conversations, each page
/// decoded with TweetKit and written through the `PageCache` (TweetStore) with its paging token, so `more` resumes
/// after a restart and a repeated search can be answered locally.
public final class XAPISource: TweetSource {
    /// Whether a call may be answered from the cache.
    public enum CachePolicy: Sendable, Hashable {
        /// Always ask the API (and write the page through the cache).
        case network
        /// Use a cached page no older than `maxAge` seconds (any age when nil); otherwise ask the API.
        case cacheFirst(maxAge: TimeInterval?)
    }

    /// A page with where it came from, for messages like "cached, 4 min ago".
    public struct Fetched: Sendable, Hashable {
        /// The page.
        public var page: Page
        /// When it was fetched from the API.
        public var fetchedAt: Date
        /// Whether it came from the cache rather than the network.
        public var fromCache: Bool

        /// Creates a result.
        public init(page: Page, fetchedAt: Date, fromCache: Bool) {
            self.page = page
            self.fetchedAt = fetchedAt
            self.fromCache = fromCache
        }
    }

    /// `x`.
    public let name = "x"
    /// The HTTP layer.
    public let client: XAPIClient
    /// Where pages are written; nil keeps nothing.
    public let cache: (any PageCache)?
    private let onWarning: (@Sendable (String) -> Void)?
    private let userIDs = Mutex<[String: UserID]>([:])

    /// Creates a source. `onWarning` receives partial errors of 200 responses (and cache write failures) as
    /// one-line messages; the partial errors also stay in `Page.errors`.
    public init(client: XAPIClient, cache: (any PageCache)? = nil, onWarning: (@Sendable (String) -> Void)? = nil) {
        self.client = client
        self.cache = cache
        self.onWarning = onWarning
    }

    // MARK: TweetSource

    /// One page of a search, always from the API (written through the cache).
    public func search(_ request: SearchRequest, cursor: String?) async throws -> Page {
        try await search(request, cursor: cursor, policy: .network).page
    }

    /// One page of a search under a cache policy.
    ///
    /// Searches take 10–100 results a page (full archive would take 500, but not with `context_annotations`, which
    /// every request asks for): a larger `pageSize` is clamped into that range. A smaller one is honoured: the API's
    /// minimum is fetched, `pageSize` tweets are returned, and the page's cursor points at the rest, which the next call
    /// serves from the cache (see `SlicedCursor`).
    public func search(_ request: SearchRequest, cursor: String?, policy: CachePolicy) async throws -> Fetched {
        if request.pageSize < Self.minimumSearchPageSize || cursor.flatMap(SlicedCursor.init) != nil {
            return try await slicedSearch(request, cursor: cursor, policy: policy)
        }
        return try await searchPage(request, cursor: cursor, policy: policy)
    }

    /// One page exactly as the API pages it (`pageSize` clamped to the endpoint's range), through the cache.
    func searchPage(_ request: SearchRequest, cursor: String?, policy: CachePolicy) async throws -> Fetched {
        let request = try Self.translated(request)
        let query = request.query.trimmingCharacters(in: .whitespaces)
        guard !query.isEmpty else {
            throw XAPIError.invalidRequest("The search query is empty: give words or operators.")
        }
        let path = request.fullArchive ? "/2/tweets/search/all" : "/2/tweets/search/recent"
        var items = Self.searchParameters(request)
        if let cursor { items.append(URLQueryItem(name: "next_token", value: cursor)) }
        return try await fetchPage(
            path: path, endpoint: "GET \(path)", query: items + XAPIFields.tweetQueryItems,
            key: Self.cacheKey(for: request), cursor: cursor, policy: policy)
    }

    /// The request as X takes it (`SearchQuery.forAPI`): top-level `since:`/`until:`, which exist only locally, become
    /// the time bounds, narrowing any the request already has; a query X would reject is refused with the reason.
    /// Text the parser cannot read goes as typed, for X to judge.
    static func translated(_ request: SearchRequest) throws -> SearchRequest {
        guard let parsed = try? SearchQuery(parsing: request.query, for: .xSearch) else { return request }
        let api: APISearchQuery
        do {
            api = try parsed.forAPI()
        } catch {
            throw XAPIError.invalidRequest(error.message)
        }
        guard api.startTime != nil || api.endTime != nil else { return request }
        var translated = request
        translated.query = api.query
        if let start = api.startTime { translated.startTime = max(request.startTime ?? start, start) }
        if let end = api.endTime { translated.endTime = min(request.endTime ?? end, end) }
        return translated
    }

    /// The tweets with these ids (1–100, duplicates dropped); unknown ids come back as partial errors (and warnings).
    public func lookup(ids: [TweetID]) async throws -> Page {
        var seen = Set<TweetID>()
        let unique = ids.filter { seen.insert($0).inserted }
        guard (1...100).contains(unique.count) else {
            throw XAPIError.invalidRequest(
                "Lookup takes 1 to 100 tweet ids at once; \(unique.count) were given. Split the list and try again.")
        }
        let joined = unique.map(\.description).joined(separator: ",")
        if unique.count == 1 {
            return try await fetchPage(
                path: "/2/tweets/\(joined)", endpoint: "GET /2/tweets/:id", query: XAPIFields.tweetQueryItems,
                key: "tweets?ids=\(joined)", cursor: nil, policy: .network
            ).page
        }
        return try await fetchPage(
            path: "/2/tweets", endpoint: "GET /2/tweets",
            query: [URLQueryItem(name: "ids", value: joined)] + XAPIFields.tweetQueryItems,
            key: "tweets?ids=\(joined)", cursor: nil, policy: .network
        ).page
    }

    /// A user's tweets, newest first; `limit` is clamped to the endpoint's 5–100, `cursor` is a `pagination_token`.
    public func userTimeline(username: String, cursor: String?, limit: Int) async throws -> Page {
        try await userTimeline(username: username, cursor: cursor, limit: limit, policy: .network).page
    }

    /// A user's tweets under a cache policy.
    public func userTimeline(username: String, cursor: String?, limit: Int, policy: CachePolicy) async throws -> Fetched
    {
        let handle = try Self.validatedUsername(username)
        let size = min(max(limit, 5), 100)
        let key = "users/\(handle.lowercased())/tweets?max_results=\(size)"
        if case .cacheFirst(let maxAge) = policy,
            let cached = try await cached(key: key, cursor: cursor, maxAge: maxAge)
        {
            return cached
        }
        let id = try await userID(for: handle)
        var items = [URLQueryItem(name: "max_results", value: String(size))]
        if let cursor { items.append(URLQueryItem(name: "pagination_token", value: cursor)) }
        return try await fetchPage(
            path: "/2/users/\(id)/tweets", endpoint: "GET /2/users/:id/tweets",
            query: items + XAPIFields.tweetQueryItems,
            key: key, cursor: cursor, policy: .network)
    }

    /// The tweets of a conversation, by a recent search for `conversation_id:<id>`.
    public func conversation(id: TweetID, cursor: String?, limit: Int) async throws -> Page {
        try await search(SearchRequest(query: "conversation_id:\(id)", pageSize: limit), cursor: cursor)
    }

    // MARK: Users

    /// The account with this handle (`@` optional). Throws `invalidRequest` when it does not exist or is suspended,
    /// with the API's explanation.
    public func user(username: String) async throws -> User {
        let handle = try Self.validatedUsername(username)
        let data = try await client.get(
            "/2/users/by/username/\(handle)", endpoint: "GET /2/users/by/username/:username",
            query: XAPIFields.userQueryItems)
        let decoded: (user: User?, errors: [PartialError])
        do {
            decoded = try APIResponseDecoder.decodeUser(from: data)
        } catch {
            throw XAPIError.malformedResponse(endpoint: "GET /2/users/by/username/:username", reason: "\(error)")
        }
        guard let user = decoded.user else {
            let why = decoded.errors.first.flatMap { $0.detail ?? $0.title } ?? "no such account"
            throw XAPIError.invalidRequest("No user @\(handle) on X: \(why)")
        }
        userIDs.withLock { $0[handle.lowercased()] = user.id }
        return user
    }

    private func userID(for handle: String) async throws -> UserID {
        if let known = userIDs.withLock({ $0[handle.lowercased()] }) { return known }
        return try await user(username: handle).id
    }

    static func validatedUsername(_ username: String) throws(XAPIError) -> String {
        let handle = username.hasPrefix("@") ? String(username.dropFirst()) : username
        guard (1...15).contains(handle.count),
            handle.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
        else {
            throw .invalidRequest(
                "\"\(username)\" is not a valid X username: use 1 to 15 letters, digits or underscores.")
        }
        return handle
    }

    // MARK: Cache

    /// The key a search's pages are cached under: the request's canonical parameters, without paging or fields.
    /// Two searches share cached pages exactly when the API would answer them the same.
    public static func cacheKey(for request: SearchRequest) -> String {
        let path = request.fullArchive ? "search/all" : "search/recent"
        let query = searchParameters(request).map { "\($0.name)=\(XAPISettings.formEncode($0.value ?? ""))" }
        return path + "?" + query.joined(separator: "&")
    }

    /// The newest tweet id of the search's cached first page: what `--new` passes as `sinceID`.
    public func newestCachedID(for request: SearchRequest) async throws -> TweetID? {
        try await cache?.cachedPage(key: Self.cacheKey(for: request), cursor: nil)?.page.newestID
    }

    /// The last page of the search's cached chain (first page, then each page's `nextToken`), with the cursor it was
    /// fetched at: after a restart, `more` continues from its `nextToken`. Nil when not even the first page is cached.
    public func lastCachedPage(for request: SearchRequest) async throws -> (cursor: String?, page: CachedPage)? {
        guard let cache else { return nil }
        let key = Self.cacheKey(for: request)
        guard var last = try await cache.cachedPage(key: key, cursor: nil) else { return nil }
        var cursor: String?
        var seen = Set<String>()
        // Bounded by the tokens seen, so a cache holding a cycle cannot loop forever.
        while let next = last.page.nextToken, seen.insert(next).inserted,
            let page = try await cache.cachedPage(key: key, cursor: next)
        {
            cursor = next
            last = page
        }
        return (cursor, last)
    }

    private static func searchParameters(_ request: SearchRequest) -> [URLQueryItem] {
        // With `context_annotations` requested the API allows at most 100 per page on both endpoints.
        let size = min(max(request.pageSize, 10), 100)
        var items = [
            URLQueryItem(name: "query", value: request.query.trimmingCharacters(in: .whitespaces)),
            URLQueryItem(name: "max_results", value: String(size)),
            URLQueryItem(name: "sort_order", value: request.sort.rawValue),
        ]
        if let since = request.sinceID { items.append(URLQueryItem(name: "since_id", value: since.description)) }
        if let until = request.untilID { items.append(URLQueryItem(name: "until_id", value: until.description)) }
        if let start = request.startTime {
            items.append(URLQueryItem(name: "start_time", value: XAPIFields.timestamp(start)))
        }
        if let end = request.endTime { items.append(URLQueryItem(name: "end_time", value: XAPIFields.timestamp(end))) }
        return items
    }

    private func cached(key: String, cursor: String?, maxAge: TimeInterval?) async throws -> Fetched? {
        guard let cache, let hit = try await cache.cachedPage(key: key, cursor: cursor) else { return nil }
        if let maxAge, client.configuration.clock.now().timeIntervalSince(hit.fetchedAt) > maxAge { return nil }
        return Fetched(page: hit.page, fetchedAt: hit.fetchedAt, fromCache: true)
    }

    private func fetchPage(
        path: String, endpoint: String, query: [URLQueryItem], key: String, cursor: String?, policy: CachePolicy
    ) async throws -> Fetched {
        if case .cacheFirst(let maxAge) = policy, let hit = try await cached(key: key, cursor: cursor, maxAge: maxAge) {
            return hit
        }
        let data = try await client.get(path, endpoint: endpoint, query: query)
        var page: Page
        do {
            page = try APIResponseDecoder.decodePage(from: data, keepOriginals: true)
        } catch {
            throw XAPIError.malformedResponse(endpoint: endpoint, reason: "\(error)")
        }
        let fetchedAt = client.configuration.clock.now()
        // Provenance in twarc2's form, so an export of these tweets says where and when they were fetched.
        let url = client.configuration.settings.url(path: path, query: query)?.absoluteString ?? path
        page.originals.twarc = TwarcMetadata(url: url, retrievedAt: fetchedAt).original
        for problem in page.errors { onWarning?(problem.warningMessage) }
        if let cache {
            do {
                try await cache.storePage(page, key: key, cursor: cursor, fetchedAt: fetchedAt)
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                onWarning?("warning: the page was fetched but could not be cached: \(error)")
            }
        }
        return Fetched(page: page, fetchedAt: fetchedAt, fromCache: false)
    }
}
