import Foundation
import TweetKit
import TweetStore

extension ShellSession {
    /// `source [x|local]`: shows or sets where searches go.
    func setSource(_ kind: SourceKind?) -> CommandStatus {
        guard let kind else {
            output.line("source: \(sources.current.rawValue)" + (sources.api == nil ? " (no X API credentials)" : ""))
            return .ok
        }
        if kind == .x, sources.api == nil {
            output.error("no X API credentials: run 'auth' first; searches stay on the local store")
            return .failed
        }
        sources.current = kind
        output.note("searches now go to \(kind == .x ? "the X API (pages are cached locally)" : "the local store")")
        return .ok
    }

    /// `import <path>`: twarc2 JSONL (or any line shape TweetKit reads), or an X account archive folder or tweets.js.
    /// Shows a progress bar on a terminal; malformed lines are reported by number and never stop the import.
    func importCollection(_ rawPath: String) async -> CommandStatus {
        let path = Self.expandTilde(rawPath, environment: environment)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            output.error("no such file or folder: \(path)")
            return .failed
        }
        let url = URL(fileURLWithPath: path)
        let isArchive = isDirectory.boolValue || path.hasSuffix(".js")
        let progressBar = ProgressBar(enabled: spinner.isEnabled, label: url.lastPathComponent)
        do {
            let progress: @Sendable (ImportProgress) -> Void = { progressBar.update($0) }
            let report =
                isArchive
                ? try await store.importArchive(at: url, progress: progress)
                : try await store.importJSONL(at: url, progress: progress)
            progressBar.finish()
            var summary =
                "imported \(report.tweets) tweet\(report.tweets == 1 ? "" : "s") from \(report.lines) line\(report.lines == 1 ? "" : "s")"
            if let resumed = report.resumedAfterLine { summary += " (resumed after line \(resumed))" }
            output.line(summary)
            if report.errorCount > 0 {
                output.warning("\(report.errorCount) malformed line\(report.errorCount == 1 ? "" : "s") skipped:")
                for problem in report.problems.prefix(5) {
                    output.warning("  \(path):\(problem.line): \(problem.message)")
                }
                if report.errorCount > 5 { output.warning("  … and \(report.errorCount - 5) more") }
            }
            return .ok
        } catch is CancellationError {
            progressBar.finish()
            output.note("import interrupted; what was committed stays, and running import again completes it")
            return .failed
        } catch {
            progressBar.finish()
            output.error("import of \(path) failed: \(ErrorText.describe(error))")
            return .failed
        }
    }

    /// `export <file> [--format jsonl|flat|csv] [--all]`: writes the current results (with `--all`, every match).
    func export(to rawPath: String, format: ExportFormat, all: Bool = false) async -> CommandStatus {
        if all { return await exportAll(to: rawPath, format: format) }
        let list = viewModel.results
        guard !list.items.isEmpty else {
            output.error("nothing to export: search first")
            return .failed
        }
        let path = Self.expandTilde(rawPath, environment: environment)
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else {
            output.error("cannot write \(path)")
            return .failed
        }
        defer { try? handle.close() }
        let writer = ExportFileWriter(
            handle: handle, format: format,
            metadata: TwarcMetadata(
                url: "tweetsh:\(list.sourceName):\(list.search?.query ?? "")",
                retrievedAt: Date()))
        do {
            for page in list.pages { try writer.write(try await withOriginals(page)) }
            try writer.finish()
        } catch {
            output.error("writing \(path) failed: \(ErrorText.describe(error))")
            return .failed
        }
        output.line(
            "wrote \(list.items.count) tweet\(list.items.count == 1 ? "" : "s") to \(path) as \(format.rawValue)")
        return .ok
    }

    /// `limits`: the rate limits the API reported, per endpoint.
    func showLimits() -> CommandStatus {
        let limits = client.rateLimits()
        guard !limits.isEmpty else {
            output.note("no API calls yet this session, so no rate limits are known")
            return .ok
        }
        let now = Date()
        output.lines(
            limits.map { status in
                let reset = status.resetAt.map { "resets in \(max(0, Int($0.timeIntervalSince(now))))s" } ?? ""
                let remaining = status.remaining.map(String.init) ?? "?"
                let limit = status.limit.map(String.init) ?? "?"
                return "\(status.endpoint)  \(remaining)/\(limit)  \(reset)"
            })
        return .ok
    }

    /// `help [command]`.
    func help(_ topic: String?) -> CommandStatus {
        if let topic {
            guard let spec = CommandSpec.named(topic) else {
                let hint = CommandSpec.suggestion(for: topic).map { "; did you mean '\($0)'?" } ?? ""
                output.error("no command '\(topic)'\(hint)")
                return .failed
            }
            var lines = [output.style.bold(spec.synopsis), "  " + spec.summary]
            if !spec.aliases.isEmpty { lines.append("  also: " + spec.aliases.joined(separator: ", ")) }
            lines.append("  examples:")
            lines += spec.examples.map { "    " + $0 }
            if spec.name == "search" {
                lines.append(
                    "  query operators: \"phrase\" OR -not (group) #tag @user from: to: lang: is:retweet|reply|quote")
                lines.append(
                    "    has:links|media|mentions|hashtags url: conversation_id: min_likes: min_reposts: since: until:")
            }
            output.lines(lines)
            return .ok
        }
        let width = CommandSpec.all.map(\.name.count).max() ?? 8
        output.lines(
            CommandSpec.all.map { spec in
                "  " + output.style.bold(spec.name) + String(repeating: " ", count: width - spec.name.count + 2)
                    + spec.summary
            } + ["", "  !N, !!, !prefix re-run an earlier command; help <command> shows examples."])
        return .ok
    }

    static func expandTilde(_ path: String, environment: [String: String]) -> String {
        guard path == "~" || path.hasPrefix("~/") else { return path }
        return (environment["HOME"] ?? NSHomeDirectory()) + path.dropFirst()
    }
}
