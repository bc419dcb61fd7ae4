import Foundation

/// One filtered-stream rule as X stores it: the id X gave it, the rule text and the optional tag.
public struct StreamRule: Sendable, Hashable {
    /// X's id for the rule (digits, as a string: the API sends it as one).
    public var id: String
    /// The rule text in X's query syntax.
    public var value: String
    /// The label tweets matched by the rule carry in `matching_rules`; nil when none was given.
    public var tag: String?

    /// Creates a rule.
    public init(id: String, value: String, tag: String? = nil) {
        self.id = id
        self.value = value
        self.tag = tag
    }
}

/// A rule to add: its text and optional tag.
public struct NewStreamRule: Sendable, Hashable {
    /// The rule text in X's query syntax.
    public var value: String
    /// The optional tag.
    public var tag: String?

    /// Creates a rule to add.
    public init(value: String, tag: String? = nil) {
        self.value = value
        self.tag = tag
    }
}

/// Something X refused about one rule of a change, from the `errors` of a 200/201 rules response.
public struct StreamRuleProblem: Sendable, Hashable, CustomStringConvertible {
    /// What kind of refusal it was, from the problem's `type` (matched by its last path component) or `title`.
    public enum Kind: Sendable, Hashable {
        /// The same rule text exists already (`duplicate-rules`); `existingID` is the rule that has it.
        case duplicate(existingID: String?)
        /// X could not accept the rule (`invalid-rules`); the details say why.
        case invalid
        /// The account's rule cap is reached (`rule-cap`).
        case ruleCap
        /// A rule to delete does not exist (`resource-not-found`).
        case notFound
        /// Any other problem, kept with X's text.
        case other
    }

    /// The kind of refusal.
    public var kind: Kind
    /// The rule text (or id, for a delete) the problem is about.
    public var value: String?
    /// X's explanation: `details` joined, else `detail`, else `title`.
    public var detail: String?

    /// Creates a problem.
    public init(kind: Kind, value: String?, detail: String?) {
        self.kind = kind
        self.value = value
        self.detail = detail
    }

    /// One sentence saying what was refused and what to do.
    public var description: String {
        let rule = value.map { "\"\($0)\"" } ?? "the rule"
        switch kind {
        case .duplicate(let id):
            return "\(rule) is already a rule" + (id.map { " (id \($0))" } ?? "") + "; 'rules list' shows it"
        case .invalid:
            return "X refused \(rule) as invalid" + (detail.map { ": \($0)" } ?? "")
        case .ruleCap:
            return "X refused \(rule): the account's rule cap is reached"
                + (detail.map { " (\($0))" } ?? "") + "; delete a rule first ('rules delete <id|tag>')"
        case .notFound:
            return "no rule \(value ?? "") on X; 'rules list' shows the active rules"
        case .other:
            return "X refused \(rule)" + (detail.map { ": \($0)" } ?? "")
        }
    }
}

/// What a rules change (add or delete, real or `dry_run`) did, from the response's `data`, `meta.summary` and `errors`.
public struct StreamRuleChange: Sendable, Hashable {
    /// The rules created (for a dry run: the rules that would be created, with ids X made up for them).
    public var created: [StreamRule]
    /// How many rules were deleted (would be, for a dry run).
    public var deleted: Int
    /// What X refused, one problem per rule.
    public var problems: [StreamRuleProblem]
    /// Whether this was a `dry_run`: nothing changed on X.
    public var dryRun: Bool

    /// Creates a change.
    public init(created: [StreamRule] = [], deleted: Int = 0, problems: [StreamRuleProblem] = [], dryRun: Bool = false)
    {
        self.created = created
        self.deleted = deleted
        self.problems = problems
        self.dryRun = dryRun
    }
}
