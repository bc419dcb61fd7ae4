import Foundation

/// The filtered stream's rules: `GET` and `POST /2/tweets/search/stream/rules`.
///
/// Rule problems X reports in the `errors` of a 200 or 201 (a duplicate, an invalid rule, the rule cap) come back in
/// `StreamRuleChange.problems`, one per rule, so a caller can say which rule was refused and why; a non-2xx status
/// throws `XAPIError` as every other call does.
extension XAPIClient {
    /// The path of the rules endpoint.
    static let streamRulesPath = "/2/tweets/search/stream/rules"

    /// The active rules, in the order X lists them.
    public func streamRules() async throws -> [StreamRule] {
        let endpoint = "GET \(Self.streamRulesPath)"
        let body = try await get(Self.streamRulesPath, endpoint: endpoint)
        let object = try Self.rulesObject(body, endpoint: endpoint)
        return Self.rules(in: object["data"])
    }

    /// Adds rules (`{"add": [...]}`); with `dryRun`, X only checks them (`dry_run=true`) and changes nothing.
    public func addStreamRules(_ rules: [NewStreamRule], dryRun: Bool = false) async throws -> StreamRuleChange {
        let add = rules.map { rule -> [String: String] in
            var item = ["value": rule.value]
            if let tag = rule.tag { item["tag"] = tag }
            return item
        }
        return try await changeRules(["add": add], dryRun: dryRun)
    }

    /// Deletes rules by id (`{"delete": {"ids": [...]}}`); with `dryRun`, nothing changes.
    public func deleteStreamRules(ids: [String], dryRun: Bool = false) async throws -> StreamRuleChange {
        try await changeRules(["delete": ["ids": ids]], dryRun: dryRun)
    }

    private func changeRules(_ payload: [String: Any], dryRun: Bool) async throws -> StreamRuleChange {
        let endpoint = "POST \(Self.streamRulesPath)"
        let json = try JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys])
        let query = dryRun ? [URLQueryItem(name: "dry_run", value: "true")] : []
        let response = try await perform(
            method: "POST", path: Self.streamRulesPath, endpoint: endpoint, query: query, json: json,
            authorization: .bearer)
        let object = try Self.rulesObject(response.body, endpoint: endpoint)
        let summary = (object["meta"] as? [String: Any])?["summary"] as? [String: Any]
        let deleted = (summary?["deleted"] as? NSNumber)?.intValue ?? 0
        return StreamRuleChange(
            created: Self.rules(in: object["data"]), deleted: deleted, problems: Self.problems(in: object["errors"]),
            dryRun: dryRun)
    }

    private static func rulesObject(_ body: Data, endpoint: String) throws -> [String: Any] {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            throw XAPIError.malformedResponse(endpoint: endpoint, reason: "the body is not a JSON object")
        }
        return object
    }

    static func rules(in value: Any?) -> [StreamRule] {
        (value as? [Any] ?? []).compactMap { item in
            guard let rule = item as? [String: Any], let id = rule["id"] as? String, let text = rule["value"] as? String
            else { return nil }
            return StreamRule(id: id, value: text, tag: rule["tag"] as? String)
        }
    }

    static func problems(in value: Any?) -> [StreamRuleProblem] {
        (value as? [Any] ?? []).compactMap { item in
            guard let error = item as? [String: Any] else { return nil }
            let type = (error["type"] as? String)?.split(separator: "/").last.map(String.init) ?? ""
            let title = error["title"] as? String ?? ""
            let details = (error["details"] as? [Any])?.compactMap { $0 as? String } ?? []
            let detail =
                details.isEmpty
                ? (error["detail"] as? String ?? (title.isEmpty ? nil : title))
                : details.joined(
                    separator: "; ")
            let kind: StreamRuleProblem.Kind
            if type == "duplicate-rules" || title == "DuplicateRule" {
                kind = .duplicate(existingID: error["id"] as? String)
            } else if type == "invalid-rules" {
                kind = .invalid
            } else if type == "rule-cap" || title == "RulesCapExceeded" {
                kind = .ruleCap
            } else if type == "resource-not-found" {
                kind = .notFound
            } else {
                kind = .other
            }
            return StreamRuleProblem(kind: kind, value: error["value"] as? String, detail: detail)
        }
    }
}
