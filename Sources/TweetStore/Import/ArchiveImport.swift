import Foundation
import TweetKit

/// Reads an X account archive in batches for a store's `importArchive`, so both stores follow the same rules:
/// unreadable entries are skipped and reported with `line` 0 and a message naming the file and position, the report
/// counts `entries` rather than lines and carries the archive's warnings (a missing `account.js`), and each batch
/// comes with the handles of the users its tweets reply to, for `to:handle`. `write` returns how many of the batch's
/// tweets the store did not hold before, so the report says how many are new, as a JSON import's does.
package enum ArchiveImport {
    /// Hands every batch of pages, with its reply handles, to `write` (which stores them in one transaction), and
    /// reports progress after each; returns the import's report.
    package static func run(
        at url: URL, progress: (@Sendable (ImportProgress) -> Void)?,
        write: ([Page], [UserID: String]) async throws -> Int
    ) async throws -> ImportReport {
        let archive = try ArchiveReader(url: url)
        var reader = archive.makePageReader(batchSize: 1_000)
        var tweets = 0
        var newTweets = 0
        var batch: [Page] = []
        func flush() async throws {
            let pages = batch
            batch.removeAll()
            newTweets += try await write(pages, reader.takeReplyHandles())
            progress?(
                ImportProgress(bytesRead: 0, totalBytes: 0, lines: 0, tweets: tweets, errors: reader.skipped.count))
        }
        while let page = try reader.next() {
            try Task.checkCancellation()
            batch.append(page)
            tweets += page.tweets.count
            if batch.count >= 5 { try await flush() }
        }
        try await flush()
        let problems = reader.skipped.prefix(TweetStore.reportedProblems).map {
            ImportProblem(line: 0, message: $0.description, excerpt: "")
        }
        var report = ImportReport(
            lines: 0, tweets: tweets, errorCount: reader.skipped.count, problems: Array(problems), skippedLines: 0,
            resumedAfterLine: nil)
        report.entries = reader.entries
        report.warnings = archive.warnings
        report.newTweets = newTweets
        return report
    }
}
