import Foundation
import Synchronization

/// The filtered stream's rules as the stub keeps them: `GET` and `POST /2/tweets/search/stream/rules`, with X's
/// validation. A rule the stub's query parser cannot read, one longer than 512 characters, or one made only of
/// negations is refused as `invalid-rules` with `(at position N)`; the same text twice is `duplicate-rules` naming the
/// rule that has it; more rules than `cap` is `rule-cap`. All three come back in the `errors` of a 200 (for a
/// change that made nothing) or 201, with `meta.summary`, as X sends them. `dry_run=true` checks without storing.
public final class StubStreamRules: Sendable {
    private struct State {
        var rules: [(id: String, value: String, tag: String?)] = []
        var nextID: UInt64 = 1_900_000_000_000_000_001
        var cap = 25
    }

    private let state = Mutex(State())

    /// Creates an empty rule book.
    public init() {}

    /// How many rules the account may hold (X's limit depends on the access level; 25 here by default).
    public var cap: Int {
        get { state.withLock { $0.cap } }
        set { state.withLock { $0.cap = newValue } }
    }

    /// The active rules as `(id, value, tag)`, in the order they were added.
    public var rules: [(id: String, value: String, tag: String?)] { state.withLock { $0.rules } }

    /// Forgets every rule.
    public func removeAll() { state.withLock { $0.rules.removeAll() } }

    func handle(_ request: RecordedRequest) -> StubResponse {
        let sent = StubJSON.timestamp(Date())
        if request.method == "GET" {
            let rules = self.rules
            var body: [String: Any] = ["meta": ["sent": sent, "result_count": rules.count]]
            if !rules.isEmpty { body["data"] = rules.map(Self.object) }
            return .json(200, body)
        }
        let dryRun = request.query["dry_run"] == "true"
        guard let payload = try? JSONSerialization.jsonObject(with: request.body) as? [String: Any],
            (payload["add"] != nil) != (payload["delete"] != nil)
        else {
            return .invalidRequest(
                parameter: "body", value: request.bodyText,
                message: "Request body must hold exactly one of `add` and `delete`")
        }
        if let add = payload["add"] as? [[String: Any]] {
            return self.add(add, dryRun: dryRun, sent: sent)
        }
        if let delete = payload["delete"] as? [String: Any] {
            return self.delete(delete, dryRun: dryRun, sent: sent)
        }
        return .invalidRequest(
            parameter: "body", value: request.bodyText, message: "`add` must be an array and `delete` an object")
    }

    private func add(_ items: [[String: Any]], dryRun: Bool, sent: String) -> StubResponse {
        state.withLock { state in
            var created: [(id: String, value: String, tag: String?)] = []
            var errors: [[String: Any]] = []
            for item in items {
                let value = item["value"] as? String ?? ""
                let tag = item["tag"] as? String
                if let problem = Self.invalidity(of: value) {
                    errors.append([
                        "value": value, "details": [problem], "title": "UnprocessableEntity",
                        "type": "https://api.twitter.com/2/problems/invalid-rules",
                    ])
                } else if let existing = (state.rules + created).first(where: { $0.value == value }) {
                    errors.append([
                        "value": value, "id": existing.id, "title": "DuplicateRule",
                        "type": "https://api.twitter.com/2/problems/duplicate-rules",
                    ])
                } else if state.rules.count + created.count >= state.cap {
                    errors.append([
                        "value": value, "title": "RulesCapExceeded",
                        "detail": "Rule cap of \(state.cap) rules reached",
                        "type": "https://api.twitter.com/2/problems/rule-cap",
                    ])
                } else {
                    created.append((String(state.nextID), value, tag))
                    state.nextID += 1
                }
            }
            if !dryRun { state.rules += created }
            var body: [String: Any] = [
                "meta": [
                    "sent": sent,
                    "summary": [
                        "created": created.count, "not_created": items.count - created.count,
                        "valid": created.count, "invalid": items.count - created.count,
                    ],
                ]
            ]
            if !created.isEmpty { body["data"] = created.map(Self.object) }
            if !errors.isEmpty { body["errors"] = errors }
            return .json(created.isEmpty ? 200 : 201, body)
        }
    }

    private func delete(_ delete: [String: Any], dryRun: Bool, sent: String) -> StubResponse {
        let ids = delete["ids"] as? [String] ?? []
        let values = delete["values"] as? [String] ?? []
        return state.withLock { state in
            var deleted = Set<String>()
            var errors: [[String: Any]] = []
            for id in ids {
                if state.rules.contains(where: { $0.id == id }) {
                    deleted.insert(id)
                } else {
                    errors.append([
                        "value": id, "title": "Not Found", "detail": "No rule with id \(id)",
                        "type": "https://api.twitter.com/2/problems/resource-not-found",
                    ])
                }
            }
            for value in values {
                if let rule = state.rules.first(where: { $0.value == value }) {
                    deleted.insert(rule.id)
                } else {
                    errors.append([
                        "value": value, "title": "Not Found", "detail": "No rule with value \(value)",
                        "type": "https://api.twitter.com/2/problems/resource-not-found",
                    ])
                }
            }
            if !dryRun { state.rules.removeAll { deleted.contains($0.id) } }
            var body: [String: Any] = [
                "meta": ["sent": sent, "summary": ["deleted": deleted.count, "not_deleted": errors.count]]
            ]
            if !errors.isEmpty { body["errors"] = errors }
            return .json(200, body)
        }
    }

    /// Why X would refuse a rule, in X's words with the position; nil for a valid one.
    static func invalidity(of value: String) -> String? {
        if value.trimmingCharacters(in: .whitespaces).isEmpty { return "Rules must not be empty" }
        if value.count > 512 { return "Rule length exceeds 512 characters (at position 513)" }
        do {
            let query = try StubQuery.parse(value)
            if query.isOnlyNegations {
                return "Rules must contain a non-negation term (at position 1)"
            }
        } catch let error as StubQuery.ParseError {
            return "\(error.message) (at position \(error.position))"
        } catch {
            return "Rule could not be read"
        }
        return nil
    }

    private static func object(_ rule: (id: String, value: String, tag: String?)) -> [String: Any] {
        var object: [String: Any] = ["id": rule.id, "value": rule.value]
        if let tag = rule.tag { object["tag"] = tag }
        return object
    }
}

extension StubQuery {
    /// Whether every term is negated (`-cat -dog`): X refuses such a rule, since it would match almost everything.
    var isOnlyNegations: Bool {
        switch self {
        case .term: return false
        case .not: return true
        case .and(let parts), .or(let parts): return parts.allSatisfy(\.isOnlyNegations)
        }
    }
}
