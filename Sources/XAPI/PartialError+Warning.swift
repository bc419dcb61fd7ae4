import TweetKit

extension PartialError {
    /// A one-line warning for the shell to print beside results, e.g.
    /// `warning: tweet 20 not found (Not Found Error: Could not find tweet with id: [20].)`.
    public var warningMessage: String {
        let subject = [resourceType, resourceID ?? value].compactMap { $0 }.joined(separator: " ")
        let kind = type?.split(separator: "/").last.map(String.init)
        let what: String
        switch kind {
        case "resource-not-found": what = "not found"
        case "not-authorized-for-resource": what = "not visible to this app"
        default: what = "unavailable"
        }
        let origin = section == "includes" ? " (referenced by a result)" : ""
        let explanation = [title, detail].compactMap { $0 }.joined(separator: ": ")
        let head = subject.isEmpty ? "an item" : subject
        return "warning: \(head) \(what)\(origin)" + (explanation.isEmpty ? "" : " (\(explanation))")
    }
}
