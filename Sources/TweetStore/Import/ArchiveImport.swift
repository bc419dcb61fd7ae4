import Foundation
import TweetKit

/// Reads an X account archive in batches for a store's `importArchive`, so both stores follow the same rules:
/// unreadable entries are skipped and reported with `line` 0 and a message naming the file and position, the report
/// counts `entries` rather than lines and carries the archive's warnings (a missing `account.js`), and each batch
/// comes with the handles of the users its tweets reply to, for `to:handle`. `write` returns how many of the batch's
/// tweets the store did not hold before, so the report says how many are new, as a JSON import's does.
///
/// The ZIP X sends is read here too, for both stores: `ZippedArchive` unpacks its tweets files into a temporary
/// folder, which is imported as a folder and removed, and the report's messages name the ZIP instead.
package enum ArchiveImport {
    /// Hands every batch of pages, with its reply handles, to `write` (which stores them in one transaction), and
    /// reports progress after each; returns the import's report.
    package static func run(
        at url: URL, progress: (@Sendable (ImportProgress) -> Void)?,
        write: ([Page], [UserID: String]) async throws -> Int
    ) async throws -> ImportReport {
        guard ZipReader.looksLikeZip(url) else { return try await read(url, progress: progress, write: write) }
        guard let unpacked = try ZippedArchive.unpack(url) else {
            throw ImportInputError(
                message: "not JSON text: looks like a ZIP archive, and not an X archive (no data/tweets.js inside); "
                    + "unzip it and import what it holds")
        }
        defer { unpacked.remove() }
        var report = try await read(unpacked.folder, progress: progress, write: write)
        let inside = unpacked.folder.path + "/"
        report.warnings = report.warnings.map { $0.replacingOccurrences(of: inside, with: "\(url.path): ") }
        for index in report.problems.indices {
            report.problems[index].message = report.problems[index].message.replacingOccurrences(
                of: inside, with: "\(url.path): ")
        }
        return report
    }

    private static func read(
        _ url: URL, progress: (@Sendable (ImportProgress) -> Void)?,
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
