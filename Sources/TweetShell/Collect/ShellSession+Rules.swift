import Foundation
import TweetKit
import XAPI

extension ShellSession {
    /// `rules add|list|delete|check`: the filtered stream's rules on X. The rule was parsed by tweetsh's query parser
    /// when the command was (a syntax error has its column before any request); what X refuses comes back one
    /// sentence per rule.
    func rules(_ action: RulesAction) async -> CommandStatus {
        let api: XAPISource
        do {
            api = try sources.requireAPI()
        } catch {
            output.error("rules live on X: \(ErrorText.describe(error))")
            return .failed
        }
        let client = api.client
        // The same rule as for searches: the user's own token never goes to the API inside a rule.
        if case .add(let rule, _) = action, holdsOwnToken(rule, client) { return refuseOwnToken() }
        if case .check(let rule) = action, holdsOwnToken(rule, client) { return refuseOwnToken() }
        do {
            switch action {
            case .list:
                let rules = try await client.streamRules()
                guard !rules.isEmpty else {
                    output.note("no stream rules on X yet: 'rules add <rule> [--tag T]' adds one")
                    return .ok
                }
                let width = rules.map(\.id.count).max() ?? 0
                output.lines(
                    rules.map { rule in
                        TerminalText.safe(
                            rule.id.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + rule.value
                                + (rule.tag.map { "  [\($0)]" } ?? ""), lineBreak: " ")
                    })
                return .ok
            case .add(let rule, let tag):
                let change = try await client.addStreamRules([NewStreamRule(value: rule, tag: tag)])
                for added in change.created {
                    output.line("added rule \(added.id): \(added.value)" + (added.tag.map { " [\($0)]" } ?? ""))
                }
                return report(change.problems)
            case .check(let rule):
                let change = try await client.addStreamRules([NewStreamRule(value: rule)], dryRun: true)
                if change.problems.isEmpty {
                    output.line("X accepts the rule: \(rule) (checked with dry_run; nothing was added)")
                }
                return report(change.problems)
            case .delete(let target):
                let rules = try await client.streamRules()
                let chosen: [StreamRule]
                if target.lowercased() == "all" {
                    chosen = rules
                } else {
                    chosen = rules.filter { $0.id == target || $0.tag == target }
                }
                guard !chosen.isEmpty else {
                    if target.lowercased() == "all" {
                        output.note("no stream rules on X to delete")
                        return .ok
                    }
                    output.error("no rule with id or tag '\(target)'; 'rules list' shows the rules")
                    return .failed
                }
                let change = try await client.deleteStreamRules(ids: chosen.map(\.id))
                output.line("deleted \(change.deleted) rule\(change.deleted == 1 ? "" : "s")")
                return report(change.problems)
            }
        } catch is CancellationError {
            output.note("rules: interrupted")
            return .failed
        } catch {
            output.error("rules: \(ErrorText.describe(error))")
            return .failed
        }
    }

    private func holdsOwnToken(_ rule: String, _ client: XAPIClient) -> Bool {
        client.tokenIsHeld(in: rule)
            || rule.split(whereSeparator: \.isWhitespace).contains { client.tokenIsHeld(in: String($0)) }
    }

    private func refuseOwnToken() -> CommandStatus {
        output.error(
            "the rule holds your own X API credentials (the bearer token, or a prefix of it), so it is not sent")
        return .failed
    }

    private func report(_ problems: [StreamRuleProblem]) -> CommandStatus {
        for problem in problems { output.error(problem.description) }
        return problems.isEmpty ? .ok : .failed
    }
}
