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

    /// `export <file> [--format jsonl|flat|csv] [--columns a,b,c] [--all]`: writes the current results (with `--all`,
    /// every match of the current search).
    func export(to rawPath: String, format: ExportFormat, columns: TwarcCSVColumns, all: Bool = false) async
        -> CommandStatus
    {
        if all { return await exportAll(to: rawPath, format: format, columns: columns) }
        // A count, when it is the current result (the last command that gave one), is what `export` writes.
        if let status = await exportCount(to: rawPath, format: format) { return status }
        let list = viewModel.results
        guard !list.items.isEmpty else {
            output.error("nothing to export: search first")
            return .failed
        }
        guard let file = await createExportFile(rawPath) else { return .failed }
        let path = file.path
        let writer = ExportFileWriter(
            handle: file.handle, format: format,
            metadata: TwarcMetadata(
                url: "tweetsh:\(list.sourceName):\(list.search?.query ?? "")",
                retrievedAt: Date()),
            columns: columns)
        do {
            for page in list.pages { try writer.write(try await withOriginals(page)) }
            try writer.finish()
            try commit(file)
        } catch {
            output.error("writing \(path) failed: \(ErrorText.describe(error)); \(file.abandon())")
            return .failed
        }
        reportWritten(
            "wrote \(list.items.count) tweet\(list.items.count == 1 ? "" : "s") to", file, "as \(format.rawValue)")
        return .ok
    }

    /// The line that says an export is written: on stdout with the rest of the results, except when the export
    /// itself went to stdout, whose data it would end; then on stderr, naming standard output.
    func reportWritten(_ what: String, _ file: ExportFile, _ how: String = "") {
        let text = [what, file.isStandardOutput ? "standard output" : file.path, how].filter { !$0.isEmpty }
            .joined(separator: " ")
        if file.isStandardOutput { output.note(text) } else { output.line(text) }
    }

    /// Opens the file an export writes, with `~` expanded (`ExportFile`: nothing is at the path until `commit`);
    /// says so and returns nil when it cannot.
    func createExportFile(_ rawPath: String) async -> ExportFile? {
        // `export ''` said only "cannot write " (the empty name resolved to the current folder).
        guard !rawPath.isEmpty else {
            output.error("the file name is empty; give a file's name, or - for standard output")
            return nil
        }
        // `-` is standard output, as for `import -`; the shell's own descriptor is shared (`ExportFile`).
        let path = rawPath == "-" ? "/dev/stdout" : Self.expandTilde(rawPath, environment: environment)
        if let reason = await protectedExportTarget(path) {
            output.error("will not write \(path): \(reason)")
            return nil
        }
        var isFolder: ObjCBool = false
        guard !(FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue),
            let file = ExportFile(path: path)
        else {
            output.error("cannot write \(path)" + (Self.unwritableReason(path).map { " (\($0))" } ?? ""))
            return nil
        }
        return file
    }

    /// Puts a finished export in place. A file replaced is said so, as twarc2 replaces one but never in silence: an
    /// earlier export of another search may have been there.
    func commit(_ file: ExportFile) throws {
        try file.commit()
        if file.replaces { output.note("\(file.path) existed and is replaced") }
    }

    /// Why a file cannot be written at `path`, when the file system tells: a folder there, no such folder, or no
    /// permission.
    static func unwritableReason(_ path: String) -> String? {
        let files = FileManager.default
        var isFolder: ObjCBool = false
        if files.fileExists(atPath: path, isDirectory: &isFolder) {
            if isFolder.boolValue { return "it is a folder; give the name of a file" }
            return files.isWritableFile(atPath: path) ? nil : "you may not write to that file"
        }
        let folder = (path as NSString).deletingLastPathComponent
        let parent = folder.isEmpty ? "." : folder
        guard files.fileExists(atPath: parent, isDirectory: &isFolder), isFolder.boolValue else {
            return "the folder \(parent) does not exist"
        }
        return files.isWritableFile(atPath: parent) ? nil : "you may not write in the folder \(parent)"
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
            output.lines(HelpText.lines(for: spec, width: display.current().width, style: output.style))
            return .ok
        }
        output.lines(HelpText.lines(for: nil, width: display.current().width, style: output.style))
        return .ok
    }

    static func expandTilde(_ path: String, environment: [String: String]) -> String {
        guard path == "~" || path.hasPrefix("~/") else { return path }
        return (environment["HOME"] ?? NSHomeDirectory()) + path.dropFirst()
    }
}
