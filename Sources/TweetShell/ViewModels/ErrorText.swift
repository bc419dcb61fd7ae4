import Foundation
import TweetStore

/// Turns any error into the one-line message the shell prints, and classifies network failures.
public enum ErrorText {
    /// A message a person can act on. Errors from our own layers already describe themselves.
    public static func describe(_ error: any Error) -> String {
        if let error = error as? CommandError { return error.description }
        // The store's errors are sentences that name the file; "store:" would only repeat that.
        if let error = error as? StoreError { return error.message }
        if let error = error as? URLError {
            switch error.code {
            case .notConnectedToInternet, .cannotConnectToHost, .cannotFindHost, .networkConnectionLost:
                return "cannot reach the X API (\(error.localizedDescription)); local searches still work: source local"
            case .timedOut:
                return "the X API did not answer in time; try again, or search the local store with --source local"
            default:
                return "network error: \(error.localizedDescription)"
            }
        }
        if let problem = fileProblem(error) { return problem }
        // Ctrl-C stops a store command with Swift's own error, whose description is the type's name.
        if error is CancellationError { return "interrupted" }
        let text = String(describing: error)
        return text.isEmpty ? "unknown error" : text
    }

    /// True for errors that mean the network is unreachable.
    public static func isOffline(_ error: any Error) -> Bool {
        guard let error = error as? URLError else { return false }
        return [.notConnectedToInternet, .cannotConnectToHost, .cannotFindHost, .networkConnectionLost, .timedOut]
            .contains(error.code)
    }
}
