import Foundation
import TweetKit

/// Where a page of local results continues: the last row's sort key, so the next page starts strictly after it.
enum SearchCursor: Equatable {
    /// Recency order: ids below this one.
    case before(Int64)
    /// Relevance order: after this (bm25 score, id) pair.
    case after(score: Double, id: Int64)

    init(_ token: String) throws {
        if token.hasPrefix("r"), let id = Int64(token.dropFirst()) {
            self = .before(id)
            return
        }
        if token.hasPrefix("b") {
            let parts = token.dropFirst().split(separator: ".")
            if parts.count == 2, let bits = UInt64(parts[0], radix: 16), let id = Int64(parts[1]) {
                self = .after(score: Double(bitPattern: bits), id: id)
                return
            }
        }
        throw StoreError(message: "'\(token.prefix(40))' is not a cursor of a local search")
    }

    var token: String {
        switch self {
        case .before(let id): return "r\(id)"
        case .after(let score, let id): return "b" + String(score.bitPattern, radix: 16) + ".\(id)"
        }
    }
}

/// Runs one page of a search: keyset paging in id order (or bm25 order), never OFFSET.
struct SearchExecutor {
    let connection: Connection
    /// Counting stops here: beyond it a count costs more than it tells.
    let countLimit: Int
    /// Users kept across the pages of one export (see `UserOriginalsCache`); nil for searches.
    var userCache: UserOriginalsCache? = nil

    /// bm25 weights per FTS5 column (body, tags, cashtags, mentions, urls, refs): words in the text count most; who
    /// wrote a tweet says nothing about how well it matches.
    static let rank = "bm25(tweets_fts, 10.0, 6.0, 6.0, 4.0, 2.0, 0.0)"

    func search(_ query: SearchQuery, request: SearchRequest, cursor token: String?) throws -> Page {
        try search(query, request: request, cursor: token, readingOriginals: false).page
    }

    /// One page, and with `readingOriginals` each tweet's stored original and `__twarc` block id, read in the same
    /// row pass (parallel to `page.tweets + page.includedTweets`; nil for a row without one). An export needs them for
    /// every tweet, and a second lookup per tweet cost it a third of its time. A tweet read with its original has
    /// only its relations in its model (`TweetRecord.relations(from:offset:)`), unless a tweet on the page has none.
    func search(
        _ query: SearchQuery, request: SearchRequest, cursor token: String?, readingOriginals: Bool
    ) throws -> (page: Page, originals: [StoredOriginal?]) {
        let reader = Reader(connection: connection, userCache: userCache)
        var compiled = try QueryCompiler(resolveUser: reader.userIDs(matching:))
            .compile(query, prefixLastWord: request.prefixLastWord)
        if let id = request.sinceID { compiled.add("(t.id > ?)", [.integer(Int64(bitPattern: id.rawValue))]) }
        if let id = request.untilID { compiled.add("(t.id < ?)", [.integer(Int64(bitPattern: id.rawValue))]) }
        if let time = request.startTime {
            compiled.add("(coalesce(t.created_at >= ?, 0))", [.integer(TweetRecord.milliseconds(time))])
        }
        if let time = request.endTime {
            compiled.add("(coalesce(t.created_at < ?, 0))", [.integer(TweetRecord.milliseconds(time))])
        }
        if let (condition, binding) = try CollectionMembership.scope(connection, collection: request.collection) {
            compiled.add("(\(condition))", [binding])
        }

        let byRelevance = request.sort == .relevancy && compiled.match != nil
        let cursor = try token.map(SearchCursor.init)
        let pageSize = max(1, min(request.pageSize, 1_000))

        // FROM and the conditions every page shares; the cursor condition comes on top.
        var from: String
        var conditions: [String]
        var bindings: [SQLValue]
        if let match = compiled.match {
            from = "tweets_fts CROSS JOIN tweets t ON t.id = tweets_fts.rowid"
            conditions = ["tweets_fts MATCH ?"] + compiled.conditions
            bindings = [.text(match)] + compiled.bindings
        } else {
            from = "tweets t"
            conditions = ["(t.flags & \(TweetFlags.includedOnly.rawValue)) = 0"] + compiled.conditions
            bindings = compiled.bindings
        }

        var select = "SELECT \(TweetRecord.columns)"
        var pageConditions = conditions
        var pageBindings = bindings
        let order: String
        if byRelevance {
            select += ", \(Self.rank) AS score"
            order = "score, t.id DESC"
            if case .after(let score, let id)? = cursor {
                pageConditions.append("(score > ? OR (score = ? AND t.id < ?))")
                pageBindings += [.real(score), .real(score), .integer(id)]
            } else if cursor != nil {
                throw StoreError(message: "this cursor belongs to a search in recency order")
            }
        } else {
            let idColumn = compiled.match == nil ? "t.id" : "tweets_fts.rowid"
            order = "\(idColumn) DESC"
            if case .before(let id)? = cursor {
                pageConditions.append("\(idColumn) < ?")
                pageBindings.append(.integer(id))
            } else if cursor != nil {
                throw StoreError(message: "this cursor belongs to a search in relevance order")
            }
        }
        let originalColumn: Int32 = byRelevance ? 14 : 13
        if readingOriginals { select += ", t.original, t.twarc" }
        let sql = "\(select) FROM \(from) WHERE \(pageConditions.joined(separator: " AND ")) ORDER BY \(order) LIMIT ?"
        pageBindings.append(.integer(Int64(pageSize + 1)))

        var scores: [Double] = []
        var originals: [StoredOriginal?] = []
        var tweets = try connection.rows(sql, pageBindings) { row -> Tweet in
            if byRelevance { scores.append(row.double(13)) }
            guard readingOriginals else { return try TweetRecord.tweet(from: row) }
            let original = StoredOriginal(row, column: originalColumn)
            originals.append(original)
            // The export writes the original; the model only says what the page must include.
            return original == nil ? try TweetRecord.tweet(from: row) : try TweetRecord.relations(from: row)
        }
        var next: SearchCursor?
        if tweets.count > pageSize {
            tweets.removeLast()
            if readingOriginals { originals.removeLast() }
            let last = tweets[tweets.count - 1]
            let id = Int64(bitPattern: last.id.rawValue)
            next = byRelevance ? .after(score: scores[pageSize - 1], id: id) : .before(id)
        }
        var (page, included) = try reader.page(with: tweets, readingOriginals: readingOriginals)
        originals += included
        if readingOriginals, originals.contains(where: { $0 == nil }) {
            // A page mixing rows kept before the store kept originals: the exports expand its models into each
            // other (a flattened tweet's referenced tweet), so every tweet on it gets its whole model back.
            try Self.completeModels(of: &page, originals: originals, reader: reader)
        }
        page.nextToken = next?.token
        if cursor == nil {
            if next == nil {
                page.resultCount = tweets.count
            } else if countLimit > 0 {
                page.resultCount = try count(
                    from: from, conditions: conditions, bindings: bindings,
                    textOnly: compiled.match != nil && compiled.conditions.isEmpty,
                    pageSize: pageSize)
            }
        }
        return (page, originals)
    }

    /// Replaces the relations-only models (the tweets that have an original) with whole ones.
    private static func completeModels(of page: inout Page, originals: [StoredOriginal?], reader: Reader) throws {
        for index in page.tweets.indices where index < originals.count && originals[index] != nil {
            if let tweet = try reader.tweet(page.tweets[index].id) { page.tweets[index] = tweet }
        }
        let offset = page.tweets.count
        for index in page.includedTweets.indices
        where offset + index < originals.count && originals[offset + index] != nil {
            if let tweet = try reader.tweet(page.includedTweets[index].id) { page.includedTweets[index] = tweet }
        }
    }

    /// The number of matches when it is cheap to know. A text-only query counts index entries alone; a query with
    /// metadata conditions must read every candidate row, so it counts only up to ten pages' worth.
    private func count(
        from: String, conditions: [String], bindings: [SQLValue], textOnly: Bool, pageSize: Int
    ) throws -> Int? {
        let limit = textOnly ? countLimit : min(countLimit, 10 * pageSize)
        let sql =
            textOnly
            ? "SELECT count(*) FROM (SELECT 1 FROM tweets_fts WHERE tweets_fts MATCH ? LIMIT ?)"
            : "SELECT count(*) FROM (SELECT 1 FROM \(from) WHERE \(conditions.joined(separator: " AND ")) LIMIT ?)"
        let values = (textOnly ? [bindings[0]] : bindings) + [.integer(Int64(limit))]
        let count = Int(try connection.scalar(sql, values) ?? 0)
        return count < limit ? count : nil
    }
}
