import Foundation
import TweetKit
import TweetStore
import XAPI

extension ShellSession {
    /// `hydrate <file> [--into NAME]`: the tweets of a file of ids into a collection (see `Hydrator`), with a
    /// progress bar on a terminal, a summary by reason, and the missing ids in a CSV beside the input.
    func hydrate(_ rawPath: String, into: String?) async -> CommandStatus {
        let api: XAPISource
        do {
            api = try sources.requireAPI()
        } catch {
            output.error("hydrate asks the X API for the tweets: \(ErrorText.describe(error))")
            return .failed
        }
        let path = Self.expandTilde(rawPath, environment: environment)
        let url = URL(fileURLWithPath: path)
        guard let data = FileManager.default.contents(atPath: path) else {
            let exists = FileManager.default.fileExists(atPath: path)
            output.error(exists ? "cannot read \(path)" : "no such file: \(path)")
            return .failed
        }
        let input = HydrateInput(text: String(decoding: data, as: UTF8.self))
        let label = url.lastPathComponent
        for problem in input.problems.prefix(5) { output.warning("\(path):\(problem.line): \(problem.message)") }
        if input.problems.count > 5 {
            output.warning("… and \(input.problems.count - 5) more lines that name no tweet")
        }
        guard !input.ids.isEmpty else {
            output.error("\(path): no tweet ids to hydrate (one id or status URL a line, or a CSV with an id column)")
            return .failed
        }
        let collection = into ?? Self.hydrateCollectionName(url)
        if let problem = CollectionName.problem(with: collection, fromFile: into == nil, flag: "--into") {
            output.error(problem)
            return .failed
        }
        let bar = HydrateProgressBar(enabled: spinner.isEnabled, label: label)
        let waitLines = WaitLines()
        let waitToken = sources.waits.add { [output, bar] notice in
            if bar.enabled {
                bar.waiting(notice)
            } else if let line = waitLines.line(for: notice) {
                output.note(line)
            }
        }
        defer {
            sources.waits.remove(waitToken)
            bar.finish()
        }
        let hydrator = Hydrator(
            source: api, store: store, collection: collection, concurrency: Self.hydrateConcurrency,
            writeAhead: Self.hydrateWriteAhead)
        let summary: Hydrator.Summary
        do {
            summary = try await hydrator.run(ids: input.ids) { bar.update($0) }
        } catch {
            bar.finish()
            let settled = (try? await store.hydrationLedger(collection: collection)).map { ledger in
                input.ids.count(where: ledger.isSettled)
            }
            let kept =
                settled.map { "\($0) of \(input.ids.count) ids are answered and kept" } ?? "what was answered is kept"
            if error is CancellationError {
                output.note("hydrate interrupted: \(kept); running the same hydrate again resumes")
            } else {
                output.error(
                    "hydrate of \(label) stopped: \(ErrorText.describe(error)); \(kept), and running it again resumes")
            }
            return .failed
        }
        bar.finish()
        var line = summary.line + " into collection '\(collection)'"
        if summary.settledBefore > 0 {
            let earlier = summary.settledBefore
            line +=
                earlier == 1
                ? " (resumed: 1 id answered earlier was not asked again)"
                : " (resumed: \(earlier) ids answered earlier were not asked again)"
        }
        output.line(line)
        if input.duplicates == 1 {
            output.note("1 repeated id was asked for once")
        } else if input.duplicates > 1 {
            output.note("\(input.duplicates) repeated ids were each asked for once")
        }
        if !summary.missing.isEmpty {
            // Beside the id file, named after the collection; a `/` or a leading `.` in the name would put it
            // elsewhere or hide it.
            var fileName = collection.replacingOccurrences(of: "/", with: "_")
            if fileName.hasPrefix(".") { fileName = "_" + fileName.dropFirst() }
            let reportPath = url.deletingLastPathComponent().appendingPathComponent("\(fileName).missing.csv").path
            do {
                try Self.missingReport(summary.missing).write(toFile: reportPath, atomically: true, encoding: .utf8)
                output.note("missing ids and reasons: \(reportPath)")
            } catch {
                output.warning("cannot write the missing ids to \(reportPath): \(ErrorText.describe(error))")
            }
        }
        if summary.hydrated > 0 { output.note("search them with: search --in \(collection) <query>") }
        return input.problems.isEmpty ? .ok : .failed
    }

    /// Batches of 100 in flight at once: four round trips overlap.
    static let hydrateConcurrency = 4

    /// Answered batches that may wait for the store while the next ones are fetched and decoded: the store commits
    /// what is ready in one transaction while both cores decode, and memory holds at most twelve batches of 100.
    /// A crash loses the answers not yet committed (at most these and the four in flight; usually only the four,
    /// as the store keeps up), and they are asked again.
    static let hydrateWriteAhead = 8

    /// The collection a hydration joins unless told otherwise: the file's name without its extensions.
    static func hydrateCollectionName(_ url: URL) -> String {
        var name = ImportInput.file(url).collectionName
        for suffix in [".csv", ".ids"] where name.lowercased().hasSuffix(suffix) && name.count > suffix.count {
            name.removeLast(suffix.count)
        }
        return name
    }

    /// `id,reason,detail` lines, the detail quoted as CSV.
    static func missingReport(_ misses: [HydrationMiss]) -> String {
        var text = "id,reason,detail\n"
        for miss in misses {
            let detail = (miss.detail ?? "").replacingOccurrences(of: "\"", with: "\"\"")
                .replacingOccurrences(of: "\n", with: " ")
            text += "\(miss.id),\(miss.reason),\"\(detail)\"\n"
        }
        return text
    }
}

/// A hydration's progress on stderr: a bar by ids answered, hydrated and missing counts, the time left, and a
/// rate-limit wait's countdown while one lasts. Only on a terminal, and redrawn at most ten times a second.
final class HydrateProgressBar: @unchecked Sendable {
    let enabled: Bool
    private let label: String
    private let lock = NSLock()
    private var last: Hydrator.Progress?
    private var lastDraw = Date.distantPast

    init(enabled: Bool, label: String) {
        self.enabled = enabled
        self.label = TerminalText.safe(label, lineBreak: " ")
    }

    func update(_ progress: Hydrator.Progress) {
        guard enabled else { return }
        lock.withLock { last = progress }
        draw(Self.line(label: label, progress: progress, wait: nil), force: progress.settled == progress.total)
    }

    func waiting(_ notice: WaitNotice) {
        guard enabled, let progress = lock.withLock({ last }) else { return }
        draw(Self.line(label: label, progress: progress, wait: notice.secondsLeft > 0 ? notice : nil), force: true)
    }

    func finish() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }

    private func draw(_ line: String, force: Bool) {
        let now = Date()
        let shouldDraw = lock.withLock { () -> Bool in
            guard force || now.timeIntervalSince(lastDraw) >= 0.1 else { return false }
            lastDraw = now
            return true
        }
        if shouldDraw { FileHandle.standardError.write(Data(("\r\u{1B}[K" + line).utf8)) }
    }

    /// `ids.txt ████░░ 43%  450/1050 ids: 430 hydrated, 20 missing, about 2 min left`; during a wait the countdown
    /// takes the place of nothing: `… · rate limit: waiting 40 s`.
    static func line(label: String, progress: Hydrator.Progress, wait: WaitNotice?) -> String {
        let fraction = progress.total > 0 ? min(1, Double(progress.settled) / Double(progress.total)) : 0
        let filled = Int(fraction * 24)
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: 24 - filled)
        var line =
            "\(label) \(bar) \(Int(fraction * 100))%  \(progress.settled)/\(progress.total) ids: "
            + "\(progress.hydrated) hydrated, \(progress.missing) missing"
        var seconds = progress.secondsLeft
        if let wait { seconds = max(seconds ?? 0, Double(wait.secondsLeft)) }
        if let seconds, progress.settled < progress.total { line += ", about \(duration(seconds)) left" }
        if let wait { line += " · rate limit: waiting \(wait.secondsLeft) s" }
        return line
    }

    /// `40 s`, `3 min`, `1 h 20 min`.
    static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.up))
        if whole < 60 { return "\(whole) s" }
        let minutes = (whole + 59) / 60
        if minutes < 60 { return "\(minutes) min" }
        return "\(minutes / 60) h \(minutes % 60) min"
    }
}
