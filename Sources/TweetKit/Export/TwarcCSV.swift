import Foundation

/// twarc-csv's CSV, built from twarc2 lines the way twarc-csv 0.7 builds it: the line is flattened as `twarc2
/// flatten` does (authors, media, polls, places and referenced tweets merged into each tweet, `__twarc` copied into
/// each), each tweet is prepared as twarc-csv prepares it (a retweet takes its original's text, entities,
/// attachments, annotations and metrics; entities become lists), and every column is a dotted path into the result.
///
/// The columns and their order are twarc-csv 0.7.2's `DEFAULT_TWEET_COLUMNS` (dataframe_converter.py); docs/store.md
/// lists them and the few places this writer differs.
public enum TwarcCSV {
    /// Writes the header row of `columns`.
    static func writeHeader(_ columns: TwarcCSVColumns, into writer: inout JSONWriter) {
        writer.append(columns.names.joined(separator: ","))
        writer.raw("\n")
    }

    /// The cells of one tweet, in `columns` order, from the tweet's object as the line holds it and its line's
    /// includes. Empty strings are empty cells. Returns nil for an object twarc-csv would skip (one without `id`).
    public static func row(
        for tweet: JSONObject, in page: TwarcCSVPage, columns: TwarcCSVColumns = .twarcDefaults
    ) -> [String]? {
        guard tweet["id"] != nil else { return nil }
        var flattened = page.expand(tweet, referencesToo: true)
        if let twarc = page.twarc { flattened.set("__twarc", twarc) }
        if let rules = page.matchingRules { flattened.set("matching_rules", rules) }
        return cells(of: TwarcCSVRow.prepare(flattened), columns: columns)
    }

    /// The rows of one twarc2 line: a page (`data` as an array or a single object, with `includes`, `__twarc`,
    /// `matching_rules`), an already flattened tweet, or an array of either. A line without tweets (only `errors`,
    /// or `meta` alone) has no rows.
    public static func rows(ofLine line: JSONValue, columns: TwarcCSVColumns = .twarcDefaults) -> [[String]] {
        switch line {
        case .array(let items):
            return items.flatMap { rows(ofLine: $0, columns: columns) }
        case .object(let object):
            if let data = object["data"] {
                let page = TwarcCSVPage(
                    includes: object["includes"], twarc: object["__twarc"], matchingRules: object["matching_rules"])
                let tweets = data.array ?? [data]
                return tweets.compactMap { $0.object.flatMap { row(for: $0, in: page, columns: columns) } }
            }
            // Not a page: a tweet twarc2 flatten already wrote, with its expansions inline.
            guard object["includes"] == nil, object["errors"] == nil, object["id"] != nil else { return [] }
            return [cells(of: TwarcCSVRow.prepare(object), columns: columns)]
        default:
            return []
        }
    }

    /// Appends the rows of one twarc2 line to `writer`.
    static func writeRows(ofLine line: JSONValue, columns: TwarcCSVColumns, into writer: inout JSONWriter) {
        for cells in rows(ofLine: line, columns: columns) { appendRow(cells, to: &writer) }
    }

    /// Appends one row of cells (from `row(for:in:columns:)`) as a CSV line.
    static func appendRow(_ cells: [String], to writer: inout JSONWriter) {
        // Python's csv module quotes a row made of one empty field, so that the line is not blank.
        if cells.count == 1, cells[0].isEmpty {
            writer.raw("\"\"\n")
            return
        }
        for (position, cell) in cells.enumerated() {
            if position > 0 { writer.raw(",") }
            TwarcCSVCellText.appendCSVField(cell, to: &writer)
        }
        writer.raw("\n")
    }

    /// Appends the rows of a page of the store's model. The page is first written as the twarc2 lines the JSONL
    /// export would write for it (with `metadata` as their `__twarc`), so the CSV always says what that export says.
    ///
    /// A page whose tweets came from different fetches is several lines, one per `__twarc` block, each parsed on its
    /// own: read as one document they failed to parse, and such a page (any search of tweets imported from more than
    /// one page) gave no rows at all while the export reported them written.
    static func writeRows(
        of page: Page, metadata: TwarcMetadata?, columns: TwarcCSVColumns, into writer: inout JSONWriter
    ) {
        guard !page.tweets.isEmpty else { return }
        var lines = JSONWriter(capacity: 2048 * page.tweets.count)
        TwarcEncoding.writePageLine(page, metadata: metadata, into: &lines)
        let bytes = lines.bytes
        var start = 0
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            // The encoder writes well-formed JSON lines by construction, so these parses do not fail.
            if end > start, let value = try? JSONParser.parse(Data(bytes[start..<end])) {
                writeRows(ofLine: value, columns: columns, into: &writer)
            }
            start = end + 1
        }
    }

    private static func cells(of tweet: JSONObject, columns: TwarcCSVColumns) -> [String] {
        var values = [JSONValue?](repeating: nil, count: columns.names.count)
        columns.tree.collect(from: tweet, into: &values)
        return values.map(TwarcCSVCellText.cell)
    }
}

/// A choice of twarc-csv columns, in the order they are written.
public struct TwarcCSVColumns: Hashable, Sendable {
    /// The column names.
    public let names: [String]
    /// The names split at their dots and merged into a tree, so one walk over a prepared tweet fills every cell.
    let tree: ColumnTree

    private init(checked names: [String]) {
        self.names = names
        var tree = ColumnTree()
        for (index, name) in names.enumerated() {
            tree.insert(name.split(separator: ".", omittingEmptySubsequences: false)[...], column: index)
        }
        self.tree = tree
    }

    /// Choices are equal when they name the same columns in the same order.
    public static func == (lhs: TwarcCSVColumns, rhs: TwarcCSVColumns) -> Bool { lhs.names == rhs.names }

    /// Hashes the names, consistently with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(names) }

    /// twarc-csv 0.7's default tweet columns, all 84, in its order.
    public static let twarcDefaults = TwarcCSVColumns(checked: defaultNames)

    /// Chooses columns from a comma-separated list such as `id,text,author.username`. Every name must be one of
    /// `twarcDefaults`; a name may repeat.
    public init(parsing list: String) throws(TwarcCSVColumnError) {
        var names: [String] = []
        var offset = 0
        for part in list.split(separator: ",", omittingEmptySubsequences: false) {
            let name = part.trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else { throw TwarcCSVColumnError(column: "", offset: offset, suggestion: nil) }
            guard Self.known.contains(name) else {
                throw TwarcCSVColumnError(column: name, offset: offset, suggestion: Self.closest(to: name))
            }
            names.append(name)
            offset += part.count + 1
        }
        self.init(checked: names)
    }

    private static let known = Set(defaultNames)

    /// The default column nearest a mistyped name: an exact match but for case, then one whose last part starts with
    /// the name's last part, then the smallest edit distance to the whole name or to the last parts; nil when even
    /// that is too far to be what was meant (`nope` is no typo of `withheld.scope`).
    static func closest(to name: String) -> String? {
        let wanted = name.lowercased()
        let wantedLast = wanted.split(separator: ".").last.map(String.init) ?? wanted
        var best = (name: defaultNames[0], score: Int.max)
        for candidate in defaultNames {
            let lowered = candidate.lowercased()
            if lowered == wanted { return candidate }
            let last = lowered.split(separator: ".").last.map(String.init) ?? lowered
            var score = min(EditDistance.between(wanted, lowered), EditDistance.between(wantedLast, last) + 1)
            if wantedLast.count >= 3, last.hasPrefix(wantedLast) { score = min(score, 1) }
            if score < best.score { best = (candidate, score) }
        }
        return best.score <= max(1, wantedLast.count / 3 + 1) ? best.name : nil
    }

    /// twarc-csv 0.7.2, dataframe_converter.py, `DEFAULT_TWEET_COLUMNS`.
    static let defaultNames: [String] = [
        "id", "conversation_id", "referenced_tweets.replied_to.id", "referenced_tweets.retweeted.id",
        "referenced_tweets.quoted.id", "author_id", "in_reply_to_user_id", "in_reply_to_username", "retweeted_user_id",
        "retweeted_username", "quoted_user_id", "quoted_username", "created_at", "text", "lang", "source",
        "public_metrics.impression_count", "public_metrics.reply_count", "public_metrics.retweet_count",
        "public_metrics.quote_count", "public_metrics.like_count", "public_metrics.bookmark_count", "reply_settings",
        "edit_history_tweet_ids", "edit_controls.edits_remaining", "edit_controls.editable_until",
        "edit_controls.is_edit_eligible", "possibly_sensitive", "withheld.scope", "withheld.copyright",
        "withheld.country_codes", "entities.annotations", "entities.cashtags", "entities.hashtags", "entities.mentions",
        "entities.urls", "context_annotations", "attachments.media", "attachments.media_keys",
        "attachments.poll.duration_minutes", "attachments.poll.end_datetime", "attachments.poll.id",
        "attachments.poll.options", "attachments.poll.voting_status", "attachments.poll_ids", "author.id",
        "author.created_at", "author.username", "author.name", "author.description",
        "author.entities.description.cashtags", "author.entities.description.hashtags",
        "author.entities.description.mentions", "author.entities.description.urls", "author.entities.url.urls",
        "author.url", "author.location", "author.pinned_tweet_id", "author.profile_image_url", "author.protected",
        "author.public_metrics.followers_count", "author.public_metrics.following_count",
        "author.public_metrics.listed_count", "author.public_metrics.tweet_count", "author.verified",
        "author.verified_type", "author.withheld.scope", "author.withheld.copyright", "author.withheld.country_codes",
        "geo.coordinates.coordinates", "geo.coordinates.type", "geo.country", "geo.country_code", "geo.full_name",
        "geo.geo.bbox", "geo.geo.type", "geo.id", "geo.name", "geo.place_id", "geo.place_type", "matching_rules",
        "__twarc.retrieved_at", "__twarc.url", "__twarc.version",
    ]
}

/// Dotted column names as a tree of their parts. Walking a prepared tweet through it is pandas' `json_normalize`
/// restricted to the wanted columns: a member's value fills the columns that end at its name, and an object is
/// descended into for the longer ones. A later member of the same name wins, as it does in a Python dict.
struct ColumnTree: Sendable {
    /// The columns (by position) whose name ends here; a name may be chosen twice.
    var columns: [Int] = []
    var children: [String: ColumnTree] = [:]

    mutating func insert(_ parts: ArraySlice<Substring>, column: Int) {
        guard let first = parts.first else {
            columns.append(column)
            return
        }
        children[String(first), default: ColumnTree()].insert(parts.dropFirst(), column: column)
    }

    func collect(from object: JSONObject, into values: inout [JSONValue?]) {
        for member in object.members {
            guard let child = children[member.key] else { continue }
            for column in child.columns { values[column] = member.value }
            if !child.children.isEmpty, case .object(let inner) = member.value {
                child.collect(from: inner, into: &values)
            }
        }
    }
}

/// An unknown or empty name in a `--columns` list.
public struct TwarcCSVColumnError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The name as given; empty for an empty entry (`id,,text`).
    public var column: String
    /// Where the entry starts in the list, in characters from 0.
    public var offset: Int
    /// The known column closest to `column`.
    public var suggestion: String?

    /// Creates the error.
    public init(column: String, offset: Int, suggestion: String?) {
        self.column = column
        self.offset = offset
        self.suggestion = suggestion
    }

    /// "unknown CSV column 'autor.username'; did you mean 'author.username'?"
    public var description: String {
        guard !column.isEmpty else { return "empty column name in the list; separate names with single commas" }
        let hint = suggestion.map { "; did you mean '\($0)'?" } ?? ""
        return "unknown CSV column '\(column)'\(hint) ('help export' lists all \(TwarcCSVColumns.defaultNames.count))"
    }
}
