import Foundation
import Synchronization
import TweetKit

/// Why the stub leaves an id out of a tweets lookup, and how X words it in the response's `errors`.
public enum StubMissingReason: String, Sendable, CaseIterable {
    /// `Not Found Error`, `Could not find tweet with ids: [id].`: the tweet was deleted (X says the same for an id
    /// that never existed).
    case deleted
    /// `Forbidden`, `User has been suspended: [author].`, with type `resource-not-found`, as X sends it.
    case suspended
    /// `Authorization Error`, `Sorry, you are not authorized to see the Tweet with ids: [id].`: a protected account.
    case protected
    /// Absent from both `data` and `errors`, which the API does not promise never to do.
    case silent
}

/// A world for hydration tests and benchmarks: `GET /2/tweets?ids=` answers every id with a tweet made up from it
/// (text, author, time from the snowflake), except the ids told to be missing, which come back in `errors` by reason.
/// Off until `answersAnyID` is set; the corpus is then not consulted for lookups.
public final class StubLookupWorld: Sendable {
    private struct State {
        var answersAnyID = false
        var missing: [TweetID: StubMissingReason] = [:]
        var answered = 0
        var hold: (after: Int, seconds: Double)?
        var held: String?
    }

    private let state = Mutex(State())

    /// Creates a world that is off.
    public init() {}

    /// Whether lookups are answered by this world.
    public var answersAnyID: Bool {
        get { state.withLock { $0.answersAnyID } }
        set { state.withLock { $0.answersAnyID = newValue } }
    }

    /// Marks ids missing for a reason (replacing any earlier reason for them).
    public func setMissing(_ ids: [TweetID], reason: StubMissingReason) {
        state.withLock { state in for id in ids { state.missing[id] = reason } }
    }

    /// Holds the lookup after the first `after` back for `seconds` (once), so a test can kill the client while that
    /// request is in flight; a client that hangs up shows in `StubServer.abandonedRequests`.
    public func hold(after: Int, seconds: Double) { state.withLock { $0.hold = (after, seconds) } }

    /// The `ids` parameter of the lookup being held (or held last), so a test knows which batch it is: with several
    /// requests in flight, the order the stub records them need not be the order it answers them.
    public var heldIDs: String? { state.withLock { $0.held } }

    /// The ids marked missing, by reason.
    public var missing: [TweetID: StubMissingReason] { state.withLock { $0.missing } }

    /// The author of a made-up tweet: one of five users, by id.
    public static func author(of id: TweetID) -> UserID { UserID(3_000 + id.rawValue % 5) }

    /// The text of a made-up tweet, so tests can search for it.
    public static func text(of id: TweetID) -> String { "hydrated tweet \(id) #hydrate" }

    func respond(_ request: RecordedRequest) -> StubResponse? {
        guard answersAnyID else { return nil }
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
        let (missing, delay) = state.withLock { state -> ([TweetID: StubMissingReason], Double) in
            state.answered += 1
            guard let hold = state.hold, state.answered > hold.after else { return (state.missing, 0) }
            state.hold = nil
            state.held = raw
            return (state.missing, hold.seconds)
        }
        let fields = Set((request.query["tweet.fields"] ?? "").split(separator: ",").map(String.init))
        let expansions = Set((request.query["expansions"] ?? "").split(separator: ",").map(String.init))
        // The body is written as text: JSONSerialization of dictionaries costs about 0.5 ms a tweet on Linux, which
        // would make the stub, not the client, the bound of a hydration benchmark. Everything written is digits and
        // ASCII the stub made, so nothing needs escaping; the errors go through `StubJSON.encode`.
        var data: [String] = []
        var errors: [[String: Any]] = []
        var authors = Set<UserID>()
        for text in ids {
            let id = TweetID(text)!
            switch missing[id] {
            case .deleted?:
                errors.append(StubJSON.notFound(value: text, resourceType: "tweet", parameter: "ids"))
            case .suspended?:
                errors.append([
                    "value": text, "detail": "User has been suspended: [\(Self.author(of: id))].", "title": "Forbidden",
                    "resource_type": "tweet", "parameter": "ids", "resource_id": text,
                    "type": "https://api.twitter.com/2/problems/resource-not-found",
                ])
            case .protected?:
                errors.append([
                    "value": text, "detail": "Sorry, you are not authorized to see the Tweet with ids: [\(text)].",
                    "title": "Authorization Error", "resource_type": "tweet", "parameter": "ids",
                    "resource_id": text, "type": "https://api.twitter.com/2/problems/not-authorized-for-resource",
                ])
            case .silent?:
                continue
            case nil:
                data.append(Self.tweet(id, fields: fields))
                authors.insert(Self.author(of: id))
            }
        }
        var parts: [String] = []
        if !data.isEmpty { parts.append("\"data\":[" + data.joined(separator: ",") + "]") }
        if expansions.contains("author_id"), !authors.isEmpty {
            let users = authors.sorted().map { "{\"id\":\"\($0)\",\"name\":\"User \($0)\",\"username\":\"user\($0)\"}" }
            parts.append("\"includes\":{\"users\":[" + users.joined(separator: ",") + "]}")
        }
        if !errors.isEmpty {
            parts.append("\"errors\":" + String(decoding: StubJSON.encode(errors), as: UTF8.self))
        }
        var response = StubResponse(
            status: 200, headers: [("Content-Type", "application/json; charset=utf-8")],
            body: Data(("{" + parts.joined(separator: ",") + "}").utf8))
        response.delay = delay
        return response
    }

    private static let created = StubJSON.timestamp(Date(timeIntervalSince1970: 1_764_460_800))

    private static func tweet(_ id: TweetID, fields: Set<String>) -> String {
        let text = text(of: id)
        var json = "{\"id\":\"\(id)\",\"text\":\"\(text)\",\"edit_history_tweet_ids\":[\"\(id)\"]"
        if fields.contains("author_id") { json += ",\"author_id\":\"\(author(of: id))\"" }
        if fields.contains("created_at") { json += ",\"created_at\":\"\(created)\"" }
        if fields.contains("lang") { json += ",\"lang\":\"en\"" }
        if fields.contains("conversation_id") { json += ",\"conversation_id\":\"\(id)\"" }
        if fields.contains("public_metrics") {
            json +=
                ",\"public_metrics\":{\"retweet_count\":0,\"reply_count\":0,\"like_count\":\(id.rawValue % 7),"
                + "\"quote_count\":0}"
        }
        if fields.contains("entities") {
            let start = text.count - "#hydrate".count
            json += ",\"entities\":{\"hashtags\":[{\"start\":\(start),\"end\":\(start + 8),\"tag\":\"hydrate\"}]}"
        }
        return json + "}"
    }
}

extension StubServer {
    /// The endpoints of tweet collection: the stream rules, and lookups when the lookup world is on.
    func collectResponse(_ request: RecordedRequest, endpoint: String) -> StubResponse? {
        switch endpoint {
        case "GET /2/tweets/search/stream/rules", "POST /2/tweets/search/stream/rules":
            return streamRules.handle(request)
        case "GET /2/tweets": return lookupWorld.respond(request)
        default: return nil
        }
    }
}
