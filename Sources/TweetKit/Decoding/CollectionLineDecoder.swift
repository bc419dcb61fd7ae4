import Foundation

/// Reads one line of a JSONL collection, whatever tool wrote it.
///
/// Collections mix shapes (a twarc2 file may hold search pages and single lookups; people concatenate files), so the
/// shape is detected per line:
/// - a twarc2 raw page: an API response with `data` as an array (plus `__twarc`);
/// - a single-tweet lookup `{"data":{...}}`, or a user lookup `{"data":{"username":…}}`;
/// - a flattened tweet (`twarc2 flatten`): a tweet object with `author`, `in_reply_to_user`, `attachments.media` and
///   expanded `referenced_tweets` merged in;
/// - a v1.1 search response (`statuses`), or a single v1.1 status (twarc 1);
/// - a flattened user (`{"id":…,"username":…}`), which yields a page with only that user.
public enum CollectionLineDecoder {
    /// Decodes one line. Returns nil for lines that hold no tweets: blank lines, and pages without `data`
    /// (empty results, error-only responses), which twarc2 records too.
    ///
    /// Throws a `DecodingProblem` saying what is wrong with a malformed line; the caller adds the line number.
    public static func decode(line: Data) throws -> Page? {
        try decode(line: line, keepOriginals: false)
    }

    /// Decodes one line and, with `keepOriginals`, keeps the JSON of each object it holds in `Page.originals`
    /// (what imports store, so exports can write back what came in).
    public static func decode(line: Data, keepOriginals: Bool) throws -> Page? {
        let (decoded, hasOriginals) = try decodeModels(line: line, keepOriginals: keepOriginals)
        guard var page = decoded else { return nil }
        if keepOriginals && !hasOriginals {
            page.originals = line.withUnsafeBytes { OriginalsExtractor.extract($0.bindMemory(to: UInt8.self)) }
        }
        return page
    }

    /// The page, and whether its originals were kept on the way (the fast path for pages does).
    private static func decodeModels(line: Data, keepOriginals: Bool) throws -> (Page?, Bool) {
        enum Outcome {
            case blank
            case fast(Page?)
            case fastPage(Page?)
            case tree(Result<JSONValue, JSONParseError>)
        }
        let outcome: Outcome = line.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var start = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
            while start < bytes.count,
                bytes[start] == 0x20 || bytes[start] == 0x09 || bytes[start] == 0x0D || bytes[start] == 0x0A
            {
                start += 1
            }
            if start == bytes.count { return .blank }
            // Most lines of a big collection are twarc2 pages: try the direct path before building a tree.
            if let fast = FastPageDecoder.decode(bytes, keepOriginals: keepOriginals) {
                return .fastPage(fast.hasData ? fast.page : nil)
            }
            if let flattened = FastPageDecoder.decodeFlattened(bytes) { return .fast(flattened) }
            return .tree(Result { () throws(JSONParseError) -> JSONValue in try JSONParser.parse(bytes) })
        }
        let parsed: Result<JSONValue, JSONParseError>
        switch outcome {
        case .blank: return (nil, false)
        case .fastPage(let page): return (page, keepOriginals)
        case .fast(let page): return (page, false)
        case .tree(let result): parsed = result
        }
        let root: JSONValue
        switch parsed {
        case .success(let value): root = value
        case .failure(let error): throw DecodingProblem(error, context: "not valid JSON")
        }
        guard var page = try decode(value: root) else { return (nil, false) }
        if keepOriginals {
            page.originals = line.withUnsafeBytes {
                OriginalsExtractor.extract(value: root, text: $0.bindMemory(to: UInt8.self))
            }
        }
        return (page, keepOriginals)
    }

    /// Decodes one already parsed line; see `decode(line:)`.
    public static func decode(value root: JSONValue) throws -> Page? {
        guard case .object(let object) = root else {
            throw DecodingProblem("line is JSON but not an object; expected a tweet or an API response")
        }
        if let data = object["data"] {
            switch data {
            case .array:
                return try APIResponseDecoder.decodePage(from: root)
            case .object(let single):
                if single["text"] == nil && single["username"] != nil {
                    var page = Page(users: [try V2Objects.user(data, path: "data")])
                    page.errors = V2Objects.partialErrors(object["errors"])
                    return page
                }
                return try APIResponseDecoder.decodePage(from: root)
            case .null:
                return nil
            default:
                throw DecodingProblem("'data' is neither a tweet object nor an array of tweets")
            }
        }
        if object["statuses"] != nil {
            return try V1SearchDecoder.decodeSearch(from: root)
        }
        if object["id_str"] != nil, object["full_text"] != nil || object["text"] != nil {
            var builder = PageBuilder()
            builder.addMain(try V1SearchDecoder.status(root, path: "line", into: &builder))
            return builder.page
        }
        if object["id"] != nil && object["text"] != nil {
            return try decodeFlattened(object)
        }
        if object["id"] != nil && object["username"] != nil {
            // A flattened user lookup (`twarc2 users`, then `flatten`): one user per line.
            return Page(users: [try V2Objects.user(root, path: "user")])
        }
        if object["meta"] != nil || object["errors"] != nil {
            return nil
        }
        let keys = object.keys.prefix(8).joined(separator: ", ")
        throw DecodingProblem("line is not a tweet, a page of tweets or a v1.1 status (its keys: \(keys))")
    }

    /// A flattened tweet carries its own includes: each embedded object becomes part of the page.
    static func decodeFlattened(_ object: JSONObject) throws -> Page {
        var builder = PageBuilder()
        let value = JSONValue.object(object)
        let tweet = try V2Objects.tweet(value, path: "tweet")
        builder.addMain(tweet)
        try addEmbedded(of: value, path: "tweet", to: &builder)
        for (index, reference) in (object["referenced_tweets"]?.array ?? []).enumerated() where reference["text"] != nil
        {
            let path = "tweet.referenced_tweets[\(index)]"
            builder.addIncluded(try V2Objects.tweet(reference, path: path))
            try addEmbedded(of: reference, path: path, to: &builder)
        }
        return builder.page
    }

    private static func addEmbedded(of value: JSONValue, path: String, to builder: inout PageBuilder) throws {
        if let author = value["author"], case .object = author {
            builder.addUser(try V2Objects.user(author, path: "\(path).author"))
        }
        if let replied = value["in_reply_to_user"], case .object = replied {
            builder.addUser(try V2Objects.user(replied, path: "\(path).in_reply_to_user"))
        }
        for item in (value["attachments"]?["media"]?.array ?? []) + (value["media"]?.array ?? []) {
            if let media = V2Objects.media(item) { builder.addMedia(media) }
        }
    }
}
