import Foundation
import TweetKit

/// Why X did not return a tweet a hydration asked for, from the problem X put in the response's `errors`.
enum HydrateReason: String, CaseIterable, Sendable {
    /// `Not Found Error` (`Could not find tweet with ids: [...]`). X says the same for a deleted tweet and for an id
    /// that never existed; a dataset's ids all existed once, so it is counted as deleted.
    case deleted
    /// `Forbidden` with `User has been suspended`: the author's account is suspended.
    case suspended
    /// `Authorization Error` (type `not-authorized-for-resource`): the author's tweets are protected.
    case protected
    /// Absent from both `data` and `errors`, or a problem of another kind: X gave no reason.
    case notFound = "not found"

    /// The reason for one problem of a lookup's `errors`.
    init(problem: PartialError) {
        let type = problem.type?.split(separator: "/").last.map(String.init) ?? ""
        let title = problem.title ?? ""
        let detail = problem.detail?.lowercased() ?? ""
        if detail.contains("suspended") || (title == "Forbidden" && type == "resource-not-found") {
            self = .suspended
        } else if type == "not-authorized-for-resource" || title == "Authorization Error" {
            self = .protected
        } else if type == "resource-not-found" || title == "Not Found Error" {
            self = .deleted
        } else {
            self = .notFound
        }
    }

    /// `12 deleted, 3 suspended`, in this enum's order, leaving out reasons with no id.
    static func summary(_ counts: [String: Int]) -> String {
        var parts = allCases.compactMap { reason in
            counts[reason.rawValue].flatMap { $0 > 0 ? "\($0) \(reason.rawValue)" : nil }
        }
        let known = Set(allCases.map(\.rawValue))
        for (reason, count) in counts.sorted(by: { $0.key < $1.key }) where !known.contains(reason) && count > 0 {
            parts.append("\(count) \(reason)")
        }
        return parts.joined(separator: ", ")
    }
}
