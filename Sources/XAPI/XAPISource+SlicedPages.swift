import Foundation
import TweetKit

/// Where a page smaller than the API's minimum continues: at `offset` in the API page fetched with `apiCursor`
/// (nil for the first page). The API page is in the cache, so the rest of it is served without a request.
///
/// Written as `~<offset>~<apiCursor>`; X's `next_token`s are alphanumeric, so the `~` cannot clash with one. It is
/// an ordinary cursor to everyone else: the search history keeps it, and `more` after a restart continues from it.
struct SlicedCursor: Hashable, Sendable {
    /// The cursor of the API page the offset points into; nil for the first page.
    var apiCursor: String?
    /// How many tweets of that page were already served.
    var offset: Int

    init(apiCursor: String?, offset: Int) {
        self.apiCursor = apiCursor
        self.offset = offset
    }

    /// Reads a token written by `token`; nil for any other cursor (an API `next_token`).
    init?(_ token: String) {
        guard token.hasPrefix("~") else { return nil }
        let parts = token.dropFirst().split(separator: "~", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let offset = Int(parts[0]), offset >= 0 else { return nil }
        self.offset = offset
        self.apiCursor = parts[1].isEmpty ? nil : String(parts[1])
    }

    /// The cursor as text.
    var token: String { "~\(offset)~\(apiCursor ?? "")" }
}

extension XAPISource {
    /// The fewest results a search page may ask for, recent and full archive alike.
    public static let minimumSearchPageSize = 10

    /// A page of `request.pageSize` tweets cut from API pages of the minimum size: `--limit 2` shows 2, and the other
    /// 8 of the fetched page wait in the cache for `more`. A cut that reaches the end of an API page goes on into the
    /// next one, so every page but the last holds exactly `pageSize` tweets.
    func slicedSearch(_ request: SearchRequest, cursor: String?, policy: CachePolicy) async throws -> Fetched {
        let wanted = max(1, request.pageSize)
        var fetchRequest = request
        // Always the minimum, so the pages an offset points into are the ones cached under that page size.
        fetchRequest.pageSize = Self.minimumSearchPageSize
        let start = cursor.flatMap(SlicedCursor.init) ?? SlicedCursor(apiCursor: cursor, offset: 0)
        var apiCursor = start.apiCursor
        var offset = start.offset
        var collected = Page()
        var first: Fetched?
        var allFromCache = true
        var next: String?
        // Bounded, so a source that keeps sending empty pages with a token cannot hold the search forever.
        for _ in 0..<50 {
            // The page an offset points into was fetched before: serve it from the cache, whatever the policy, so
            // the offset still means the same tweets.
            let pagePolicy: CachePolicy = offset > 0 || first != nil ? .cacheFirst(maxAge: nil) : policy
            let fetched = try await searchPage(fetchRequest, cursor: apiCursor, policy: pagePolicy)
            if first == nil { first = fetched }
            allFromCache = allFromCache && fetched.fromCache
            let page = fetched.page
            let taken = page.tweets.dropFirst(offset).prefix(wanted - collected.tweets.count)
            collected.tweets += taken
            collected.users += page.users
            collected.includedTweets += page.includedTweets
            collected.media += page.media
            collected.errors += page.errors
            let used = offset + taken.count
            if used < page.tweets.count {
                next = SlicedCursor(apiCursor: apiCursor, offset: used).token
                break
            }
            guard let token = page.nextToken else { break }
            if collected.tweets.count >= wanted {
                next = token
                break
            }
            apiCursor = token
            offset = 0
        }
        collected.users = Self.unique(collected.users, by: \.id)
        collected.includedTweets = Self.unique(collected.includedTweets, by: \.id)
        collected.media = Self.unique(collected.media, by: \.mediaKey)
        collected.newestID = collected.tweets.map(\.id).max()
        collected.oldestID = collected.tweets.map(\.id).min()
        collected.resultCount = collected.tweets.count
        collected.nextToken = next
        return Fetched(
            page: collected, fetchedAt: first?.fetchedAt ?? client.configuration.clock.now(), fromCache: allFromCache)
    }

    static func unique<T, Key: Hashable>(_ items: [T], by key: (T) -> Key) -> [T] {
        var seen = Set<Key>()
        return items.filter { seen.insert(key($0)).inserted }
    }
}

extension XAPISource {
    /// Folds what a `--new` search (`request` has a `sinceID`) found into the cached first page of the same search
    /// without it, so the cached view of that search includes the new tweets, newest first, as the API would list them.
    ///
    /// The new tweets are taken from the cached first API page of the `sinceID` search (which holds them all, even when
    /// fewer were shown), else from `page`. Nothing cached for the plain search means nothing to update: it is fetched
    /// fresh the next time anyway.
    public func mergeNewer(_ page: Page, of request: SearchRequest) async throws {
        guard let cache, request.sinceID != nil else { return }
        var newer = try Self.translated(request)
        newer.pageSize = max(newer.pageSize, Self.minimumSearchPageSize)
        var plain = newer
        plain.sinceID = nil
        let key = Self.cacheKey(for: plain)
        guard let cached = try await cache.cachedPage(key: key, cursor: nil) else { return }
        let fresh = try await cache.cachedPage(key: Self.cacheKey(for: newer), cursor: nil)?.page ?? page
        let known = Set(cached.page.tweets.map(\.id))
        let added = fresh.tweets.filter { !known.contains($0.id) }
        guard !added.isEmpty else { return }
        var merged = cached.page
        merged.tweets = added + merged.tweets
        merged.users = Self.unique(fresh.users + merged.users, by: \.id)
        merged.includedTweets = Self.unique(fresh.includedTweets + merged.includedTweets, by: \.id)
        merged.media = Self.unique(fresh.media + merged.media, by: \.mediaKey)
        merged.newestID = merged.tweets.map(\.id).max()
        merged.resultCount = merged.tweets.count
        try await cache.storePage(merged, key: key, cursor: nil, fetchedAt: client.configuration.clock.now())
    }
}

extension XAPISource {
    /// The cached pages a search showed before `cursor`, in order, so a resumed `more` (after a restart) can number on
    /// and `show N` can reach the earlier results. Follows the cached chain from the first page through each
    /// `nextToken`; for a cursor into a page (`SlicedCursor`), the chain of minimum-size pages and the part of the last
    /// one already shown. Nil when the chain does not reach `cursor` (another page size, or evicted pages).
    public func cachedPages(for request: SearchRequest, before cursor: String) async throws -> [Page]? {
        guard let cache else { return nil }
        var translated = try Self.translated(request)
        let sliced = SlicedCursor(cursor)
        if sliced != nil { translated.pageSize = Self.minimumSearchPageSize }
        let key = Self.cacheKey(for: translated)
        let target = sliced?.apiCursor ?? cursor
        var pages: [Page] = []
        var at: String?
        // Bounded, so a cache holding a cycle cannot loop forever.
        for _ in 0..<200 {
            guard let page = try await cache.cachedPage(key: key, cursor: at)?.page else { return nil }
            if let sliced, at == sliced.apiCursor {
                var shown = page
                shown.tweets = Array(page.tweets.prefix(sliced.offset))
                return pages + [shown]
            }
            pages.append(page)
            guard let next = page.nextToken else { return nil }
            if sliced == nil, next == target { return pages }
            at = next
        }
        return nil
    }
}
