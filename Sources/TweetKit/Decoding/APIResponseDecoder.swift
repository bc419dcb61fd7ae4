import Foundation

/// Reads X API v2 response bodies into pages.
///
/// One entry point serves every tweet endpoint because their bodies share a shape: a search or timeline page,
/// a multi-tweet lookup, a single-tweet `{"data":{...}}`, an empty result `{"meta":{"result_count":0}}`, and a 200
/// carrying only `errors`.
public enum APIResponseDecoder {
    /// Decodes any API v2 tweet response body (search, timeline, lookup, single tweet) into a page.
    ///
    /// Throws a `DecodingProblem` for bodies that are not JSON, are not an object, or are an API problem document
    /// (`{"title":…,"detail":…}`) rather than data.
    public static func decodePage(from data: Data) throws -> Page {
        try decodePage(from: data, keepOriginals: false)
    }

    /// Decodes a body and, with `keepOriginals`, keeps each object's JSON as sent in `Page.originals`.
    public static func decodePage(from data: Data, keepOriginals: Bool) throws -> Page {
        let fast = data.withUnsafeBytes { raw in
            FastPageDecoder.decode(raw.bindMemory(to: UInt8.self), keepOriginals: keepOriginals)
        }
        if let fast { return fast.page }
        let root: JSONValue
        do {
            root = try JSONParser.parse(data)
        } catch {
            throw DecodingProblem(error, context: "response is not valid JSON")
        }
        var page = try decodePage(from: root)
        // From the body's bytes, as the fast path does, so values keep how they were written.
        if keepOriginals {
            page.originals = data.withUnsafeBytes {
                OriginalsExtractor.extract(value: root, text: $0.bindMemory(to: UInt8.self))
            }
        }
        return page
    }

    /// Decodes an already parsed API v2 tweet response.
    public static func decodePage(from root: JSONValue) throws -> Page {
        guard case .object(let object) = root else {
            throw DecodingProblem("response is not a JSON object")
        }
        var page = Page()
        switch object["data"] {
        case .array(let items)?:
            page.tweets.reserveCapacity(items.count)
            for (index, item) in items.enumerated() {
                page.tweets.append(try V2Objects.tweet(item, path: "data[\(index)]"))
            }
        case .object?:
            page.tweets = [try V2Objects.tweet(object["data"]!, path: "data")]
        case nil, .null?:
            if let problem = V2Objects.errorDocumentProblem(object) { throw problem }
            if object["meta"] == nil && object["errors"] == nil {
                throw DecodingProblem(
                    "response has none of data, meta or errors; keys: \(object.keys.joined(separator: ", "))")
            }
        default:
            throw DecodingProblem("'data' is neither a tweet object nor an array of tweets")
        }
        if let includes = object["includes"] {
            try V2Objects.readIncludes(includes, into: &page)
        }
        if let meta = object["meta"]?.object {
            page.newestID = meta["newest_id"]?.snowflake
            page.oldestID = meta["oldest_id"]?.snowflake
            page.resultCount = meta["result_count"]?.int
            page.nextToken = meta["next_token"]?.string ?? meta["pagination_token"]?.string
            page.previousToken = meta["previous_token"]?.string
        }
        page.errors = V2Objects.partialErrors(object["errors"])
        return page
    }

    /// Decodes a `GET /2/users/by/username/:username` (or `/2/users/:id`) body.
    ///
    /// An unknown or suspended account is a 200 with only `errors`: that gives a nil user and the errors.
    public static func decodeUser(from data: Data) throws -> (user: User?, errors: [PartialError]) {
        let root: JSONValue
        do {
            root = try JSONParser.parse(data)
        } catch {
            throw DecodingProblem(error, context: "response is not valid JSON")
        }
        guard case .object(let object) = root else { throw DecodingProblem("response is not a JSON object") }
        let errors = V2Objects.partialErrors(object["errors"])
        switch object["data"] {
        case .object?:
            return (try V2Objects.user(object["data"]!, path: "data"), errors)
        case .array(let items)? where items.count <= 1:
            return (try items.first.map { try V2Objects.user($0, path: "data[0]") }, errors)
        case nil, .null?:
            if errors.isEmpty, let title = object["title"]?.string {
                throw DecodingProblem("response is an API error, not data: \(title)")
            }
            return (nil, errors)
        default:
            throw DecodingProblem("'data' is not a user object")
        }
    }

    /// Decodes a body holding several users (`GET /2/users?ids=…`, `/2/users/by?usernames=…`).
    public static func decodeUsers(from data: Data) throws -> (users: [User], errors: [PartialError]) {
        let root: JSONValue
        do {
            root = try JSONParser.parse(data)
        } catch {
            throw DecodingProblem(error, context: "response is not valid JSON")
        }
        guard case .object(let object) = root else { throw DecodingProblem("response is not a JSON object") }
        let items: [JSONValue]
        switch object["data"] {
        case .array(let array)?: items = array
        case .object(let single)?: items = [.object(single)]
        default: items = []
        }
        var users: [User] = []
        for (index, item) in items.enumerated() {
            users.append(try V2Objects.user(item, path: "data[\(index)]"))
        }
        return (users, V2Objects.partialErrors(object["errors"]))
    }
}
