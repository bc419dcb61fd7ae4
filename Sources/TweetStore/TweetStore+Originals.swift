import Foundation
import TweetKit

extension TweetStore {
    /// The page with the originals of its objects filled in from the store, for an export that writes them as they
    /// came. Objects the store has no original for keep only their models.
    public func withOriginals(_ page: Page) async throws -> Page {
        try await database.run { connection in
            var reader = OriginalsReader(connection: connection)
            var filled = page
            filled.originals.merge(try reader.originals(for: page))
            return filled
        }
    }

    /// Writes every match of `query` to `writer`, newest first (or in relevance order), a page at a time: each page is
    /// read with its originals in one hop onto the store's queue, written out and dropped, so memory stays constant
    /// whatever the number of matches. The next page is read on the store's queue while this one is encoded and
    /// written, so reading and writing overlap on two cores; at most two pages are held.
    ///
    /// - Parameters:
    ///   - request: the search's options; `pageSize` sets how many tweets each round trip reads.
    ///   - progress: hears the number of tweets written after each page.
    /// - Returns: the number of tweets written.
    public func exportAll(
        _ query: SearchQuery, request: SearchRequest, to writer: ExportFileWriter,
        progress: (@Sendable (Int) -> Void)? = nil
    ) async throws -> Int {
        var widened = request
        widened.prefixLastWord = false
        let request = widened
        let countLimit = self.countLimit
        let database = self.database
        let userCache = UserOriginalsCache()
        let codec = self.codec
        /// Reads a page on the store's queue, its tweets' originals still compressed.
        @Sendable func read(after cursor: String?) async throws -> ReadPage {
            try await database.run { connection in
                try connection.readTransaction {
                    var (page, stored) = try SearchExecutor(
                        connection: connection, countLimit: countLimit, userCache: userCache
                    ).search(query, request: request, cursor: cursor, readingOriginals: true)
                    var reader = OriginalsReader(connection: connection, userCache: userCache)
                    let (originals, deferred) = try reader.originalsDeferringTweets(for: page, stored: stored)
                    page.originals = originals
                    return ReadPage(page: page, deferred: deferred)
                }
            }
        }
        /// Expands a read page's tweets' originals off the queue; the rare page whose tweets name places or polls,
        /// or whose blobs need a dictionary the codec has not loaded, goes back to the queue for them.
        @Sendable func expand(_ read: ReadPage) async throws -> Page {
            var page = read.page
            let missing = DeferredTweetOriginal.expand(read.deferred, into: &page.originals, codec: codec)
            guard !missing.places.isEmpty || !missing.polls.isEmpty || !missing.needStore.isEmpty else { return page }
            let originals = page.originals
            page.originals = try await database.run { connection in
                var filled = originals
                var places = missing.places
                var polls = missing.polls
                let reader = OriginalsReader(connection: connection)
                for entry in missing.needStore {
                    let original = OriginalJSON(bytes: try reader.expand(entry.blob))
                    filled.tweets[entry.id] = original
                    if let twarc = entry.twarc { filled.tweetTwarc[entry.id] = twarc }
                    let (place, tweetPolls) = original.placeAndPolls
                    if let place, filled.places[place] == nil { places.insert(place) }
                    for poll in tweetPolls where filled.polls[poll] == nil { polls.insert(poll) }
                }
                try reader.objects(places: places, polls: polls, into: &filled)
                return filled
            }
            return page
        }
        // Three stages overlap: while page n is written here, page n + 1 is expanded in one child task and page n + 2
        // read on the store's queue for another. At most three pages are held.
        var written = 0
        var page = try await expand(try await read(after: nil))
        /// The next page, read and not yet expanded; nil after the last.
        @Sendable func read(following page: Page) async throws -> ReadPage? {
            guard let cursor = page.nextToken else { return nil }
            return try await read(after: cursor)
        }
        var ahead = try await read(following: page)
        while true {
            try Task.checkCancellation()
            // Pages of one export follow each other: the store's cursor is nobody's business in the file.
            page.nextToken = nil
            guard let next = ahead else {
                try writer.write(page)
                written += page.tweets.count
                progress?(written)
                return written
            }
            async let expanded = expand(next)
            async let further = read(following: next.page)
            try writer.write(page)
            written += page.tweets.count
            progress?(written)
            page = try await expanded
            ahead = try await further
        }
    }

    /// How many originals the store keeps and their compressed size, for `info` and benchmarks.
    public func originalsSize() async throws -> (objects: Int, bytes: Int) {
        try await database.run { connection in
            let tweets = try connection.rows(
                "SELECT count(original), coalesce(sum(length(original)), 0) FROM tweets"
            ) { ($0.int(0), $0.int(1)) }
            let others = try connection.rows("SELECT count(*), coalesce(sum(length(body)), 0) FROM originals") {
                ($0.int(0), $0.int(1))
            }
            return (tweets[0].0 + others[0].0, tweets[0].1 + others[0].1)
        }
    }
}

/// A page read for `exportAll` on the store's queue, with its tweets' originals not yet expanded.
struct ReadPage: Sendable {
    let page: Page
    let deferred: [DeferredTweetOriginal]
}
