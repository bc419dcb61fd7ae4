import Foundation
import TweetStore

extension ShellSession {
    /// `backup <file>`: a consistent copy of the store, written while other shells may be using it.
    func backup(to rawPath: String) async -> CommandStatus {
        guard !rawPath.isEmpty else {
            output.error("the file name is empty; give the backup a new file's name")
            return .failed
        }
        let path = Self.expandTilde(rawPath, environment: environment)
        do {
            let report = try await store.backup(to: path)
            let megabytes = Double(report.bytes) / 1_048_576
            output.line("wrote a backup of the store to \(report.path) (\(String(format: "%.1f", megabytes)) MB)")
            return .ok
        } catch is CancellationError {
            output.note("backup cancelled; nothing was written")
            return .failed
        } catch {
            output.error(ErrorText.describe(error))
            return .failed
        }
    }
}
