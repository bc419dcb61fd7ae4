import Foundation
import Synchronization
import TweetKit
import TweetStore

#if canImport(Glibc)
    import Glibc
#endif

extension ShellSession {
    /// `import <path>... | -`: files (JSON Lines or documents, plain or compressed), folders, globs, X archives, or
    /// standard input, with one summary at the end.
    ///
    /// Shows a progress bar per file on a terminal. Malformed records are reported by line number and never stop the
    /// import; a file that is not JSON at all is refused in one line, the other files are still imported, and the
    /// command fails (exit status 1).
    ///
    /// Each file joins a collection named after it, or all join `collection` (`--as NAME`). The first import into a
    /// store that held only the demo corpus says that the demo corpus now stays out of searches.
    func importCollections(_ rawPaths: [String], collection: String? = nil) async -> CommandStatus {
        let expanded = ImportTargets(rawPaths, environment: environment)
        var failed = !expanded.missing.isEmpty
        for message in expanded.missing { output.error(message) }
        if expanded.targets.contains(.standardInput), TerminalSize.isTerminal(STDIN_FILENO) {
            output.error("import -: standard input is a terminal; pipe a file in (tweetsh -c 'import -' < file)")
            return .failed
        }
        var summary = ImportSummary()
        let demoWasHidden = (try? await store.hidesDemoCorpus()) ?? true
        for target in expanded.targets {
            switch await importOne(target, collection: collection) {
            // An archive's report counts entries (a folder, a zipped one, or a tweets file under any name).
            case .imported(let report): summary.add(report, archive: report.entries != nil)
            case .failed: failed = true
            case .interrupted(let committed):
                // What the files before it brought, then how far this one got: its batches commit whole, and the
                // last progress heard counts the tweets of the batches committed (earlier runs' included).
                if summary.files > 0 { output.line(summary.line()) }
                let done =
                    committed == 0
                    ? "interrupted before any of its tweets were committed"
                    : "interrupted: \(committed) of its tweets are committed and stay"
                let again = target == .standardInput ? "" : "; running import again completes it"
                output.note("import of \(target.label) " + done + again)
                return .failed
            }
        }
        if summary.files > 0 { output.line(summary.line()) }
        if !demoWasHidden, (try? await store.hidesDemoCorpus()) == true {
            output.note(
                "the demo corpus is now left out of searches and exports: 'search --in demo' finds it, "
                    + "'drop demo' removes it")
        }
        return failed || summary.failed ? .failed : .ok
    }

    private enum ImportOutcome {
        case imported(ImportReport)
        case failed
        /// Stopped by Ctrl-C after committing this many of the input's tweets.
        case interrupted(committed: Int)
    }

    private func importOne(_ target: ImportTargets.Target, collection: String?) async -> ImportOutcome {
        let label = target.label
        let progressBar = ProgressBar(
            enabled: spinner.isEnabled,
            label: target == .standardInput ? "stdin" : (label as NSString).lastPathComponent)
        defer { progressBar.finish() }
        let heard = LastProgress()
        let progress: @Sendable (ImportProgress) -> Void = { update in
            heard.hear(update)
            progressBar.update(update)
        }
        do {
            let report: ImportReport
            switch target {
            case .archive(let path):
                report = try await store.importArchive(
                    at: URL(fileURLWithPath: path), collection: collection, progress: progress)
            case .file(let path) where ZipReader.looksLikeZip(URL(fileURLWithPath: path)):
                // The stores read the ZIP X sends as the archive in it.
                report = try await store.importArchive(
                    at: URL(fileURLWithPath: path), collection: collection, progress: progress)
            case .file(let path):
                let input = ImportInput.file(URL(fileURLWithPath: path))
                if case .archiveScript = try input.detect() {
                    report = try await store.importArchive(
                        at: URL(fileURLWithPath: path), collection: collection, progress: progress)
                } else {
                    report = try await store.importJSON(from: input, collection: collection, progress: progress)
                }
            case .standardInput:
                report = try await store.importJSON(from: .standardInput, collection: collection, progress: progress)
            }
            progressBar.finish()
            reportProblems(report, label: label)
            return .imported(report)
        } catch is CancellationError {
            return .interrupted(committed: heard.tweets)
        } catch let error as ImportInputError {
            progressBar.finish()
            output.error("\(label): \(error.message)")
            return .failed
        } catch {
            progressBar.finish()
            let kept = await keptAfterFailure(target, collection: collection)
            output.error("import of \(label) failed: \(ErrorText.describe(error))" + kept)
            return .failed
        }
    }

    /// What a failed import (a full disk, a lost server) left, read back from the store: its batches commit whole, so
    /// the collection holds what was committed before the failure, and the user needs to know that it stays and that
    /// the same import finishes the job. Empty when the store cannot be read either.
    private func keptAfterFailure(_ target: ImportTargets.Target, collection: String?) async -> String {
        let input: ImportInput
        switch target {
        case .file(let path), .archive(let path): input = .file(URL(fileURLWithPath: path))
        case .standardInput: input = .standardInput
        }
        let name = collection ?? input.collectionName
        guard let list = try? await store.collections() else { return "" }
        let held = list.first { $0.name.lowercased() == name.lowercased() }?.tweets ?? 0
        guard held > 0 else { return "; none of its tweets were stored" }
        let again = target == .standardInput ? "" : ", and running the same import again completes it"
        let tweets = held == 1 ? "1 tweet" : "\(held) tweets"
        return "; what was committed before it stopped stays (the collection '\(TerminalText.safe(name))' holds "
            + "\(tweets))" + again
    }

    /// Malformed records (five of them by line), values that are not tweets, and a stream that ended early.
    private func reportProblems(_ report: ImportReport, label: String) {
        for warning in report.warnings { output.warning(warning) }
        // An archive has entries, not lines; its problems name their file and entry themselves.
        let unit = report.entries != nil ? "archive entry" : report.framing == .lines ? "line" : "value"
        if report.errorCount > 0 {
            let units = report.entries != nil ? "archive entries" : unit + "s"
            output.warning("\(label): \(report.errorCount) malformed \(report.errorCount == 1 ? unit : units) skipped:")
            for problem in report.problems.prefix(5) {
                output.warning(
                    report.entries == nil ? "  \(label):\(problem.line): \(problem.message)" : "  \(problem.message)")
            }
            if report.errorCount > 5 { output.warning("  … and \(report.errorCount - 5) more") }
        }
        for (name, count) in report.notTweets.sorted(by: { $0.key < $1.key }) {
            let what = count == 1 ? "1 \(unit) is" : "\(count) \(unit)s are"
            // A file of nothing but users (say) is the wrong file, not a file with a few odd records.
            if report.tweets == 0 {
                output.error("\(label): \(what) \(name), not tweets; the file holds no tweets to import")
            } else {
                output.warning("\(label): \(what) \(name), not tweets")
            }
        }
        if let problem = report.streamProblem {
            output.error("\(label): \(problem); the tweets before that point are imported")
        }
    }
}

/// The progress an import reported last. Each report follows a committed batch (or, on SQLite, a queued one, which
/// a cancelled import still commits), so its count is what an interrupted import leaves in the store.
private final class LastProgress: Sendable {
    private let last = Mutex<ImportProgress?>(nil)
    func hear(_ progress: ImportProgress) { last.withLock { $0 = progress } }
    var tweets: Int { last.withLock { $0?.tweets ?? 0 } }
}

/// The one line an `import` ends with, over all its files.
struct ImportSummary {
    private(set) var files = 0
    private var tweets = 0
    private var thisRun = 0
    private var new = 0
    private var units = 0
    private var unit = "line"
    private var compressed: [String] = []
    private var resumedAfter: Int?
    private var archives = 0
    private var entries = 0
    /// A file ended early, none of its records could be read, or none of them was a tweet.
    private(set) var failed = false

    mutating func add(_ report: ImportReport, archive: Bool) {
        files += 1
        tweets += report.tweets
        if archive {
            archives += 1
            thisRun += report.tweets
            new += report.newTweets
            entries += report.entries ?? 0
            return
        }
        thisRun += report.tweetsThisRun
        new += report.newTweets
        units += report.lines
        let reportUnit = report.framing == .lines ? "line" : "value"
        unit = files == 1 || unit == reportUnit ? reportUnit : "record"
        compressed += report.compression.map(\.rawValue)
        resumedAfter = files == 1 ? report.resumedAfterLine : nil
        if report.streamProblem != nil || (report.tweets == 0 && (report.errorCount > 0 || !report.notTweets.isEmpty)) {
            failed = true
        }
    }

    /// `imported 600 tweets from 12 lines (gzip): 600 new`; with several files, `from 3 files, 36 lines`; a resumed
    /// import adds what this run read: `(resumed after line 5000): 1000 read this run, 1000 new`.
    func line() -> String {
        var text = "imported \(tweets) tweet\(tweets == 1 ? "" : "s") from "
        let countedUnits = "\(units) \(unit)\(units == 1 ? "" : "s")"
        if files == 1 {
            text += archives == 1 ? "\(entries) archive entr\(entries == 1 ? "y" : "ies")" : countedUnits
        } else {
            text += "\(files) files" + (archives == files ? "" : ", \(countedUnits)")
        }
        let formats = Array(Set(compressed)).sorted()
        if !formats.isEmpty { text += " (" + formats.joined(separator: ", ") + ")" }
        if let resumedAfter {
            text += " (resumed after \(unit) \(resumedAfter)): \(thisRun) read this run,"
        } else {
            text += ":"
        }
        text += " \(new) new"
        if text.hasSuffix(":") || text.hasSuffix(",") { text.removeLast() }
        return text
    }
}
