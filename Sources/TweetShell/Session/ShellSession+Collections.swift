import Foundation
import LineEditor
import TweetKit
import TweetStore

extension ShellSession {
    /// `collections`: each collection with its tweets and the dates they span.
    func listCollections() async -> CommandStatus {
        do {
            let list = try await store.collections()
            guard !list.isEmpty else {
                output.note("no collections yet: 'import <file>' makes one")
                return .ok
            }
            let width = list.map(\.name.count).max() ?? 0
            let counts = list.map { String($0.tweets) }
            let countWidth = counts.map(\.count).max() ?? 0
            let scope = sources.collection
            output.lines(
                zip(list, counts).map { info, count in
                    var line =
                        info.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                        + String(repeating: " ", count: countWidth - count.count) + count + " tweet"
                        + (info.tweets == 1 ? " " : "s")
                    if let earliest = info.earliest, let latest = info.latest {
                        line += "  " + Self.day(earliest) + " – " + Self.day(latest)
                    }
                    if info.hidden {
                        line += "  (left out of searches: search --in \(info.name), or drop \(info.name))"
                    }
                    if scope?.lowercased() == info.name.lowercased() { line += "  (searches stay inside it)" }
                    return line
                })
            return .ok
        } catch {
            output.error("cannot list collections: \(ErrorText.describe(error))")
            return .failed
        }
    }

    private static func day(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return formatter.string(from: date)
    }

    /// `collection [NAME|all]`: shows or sets the collection local searches stay inside.
    func setCollection(_ name: String?) async -> CommandStatus {
        guard let name else {
            output.line("collection: " + (sources.collection ?? "all"))
            return .ok
        }
        if name.lowercased() == "all" {
            sources.collection = nil
            output.note("local searches now cover every collection")
        } else {
            let names = ((try? await store.collections()) ?? []).map { $0.name.lowercased() }
            guard names.contains(name.lowercased()) else {
                output.error("no collection named '\(name)'; 'collections' lists them")
                return .failed
            }
            sources.collection = name
            output.note("local searches now stay inside the collection '\(name)' ('collection all' to leave it)")
        }
        return .ok
    }

    /// `drop NAME`: deletes a collection and the tweets only it holds.
    /// Drops a collection. A person at the terminal is asked first, with how many tweets go, unless it is the demo
    /// corpus (generated, and made again by nobody's work): a mistyped name or a recalled history line must not
    /// delete a collection that took days of API quota to gather. A script is not asked, so it can drop on its own.
    func dropCollection(_ name: String, reader: (any LineReader)?) async -> CommandStatus {
        do {
            if let reader, reader.isInteractive, name.lowercased() != "demo" {
                guard
                    let info = try await store.collections().first(where: { $0.name.lowercased() == name.lowercased() })
                else {
                    output.error("no collection named '\(name)'; 'collections' lists them")
                    return .failed
                }
                let tweets = "\(info.tweets) tweet\(info.tweets == 1 ? "" : "s")"
                let question =
                    "drop the collection '\(TerminalText.safe(info.name))' (\(tweets))? It cannot be undone; "
                    + "'backup <file>' keeps a copy. [y/N] "
                let answer = try? reader.readLine(prompt: question)
                guard case .line(let text)? = answer,
                    ["y", "yes"].contains(text.trimmingCharacters(in: .whitespaces).lowercased())
                else {
                    output.note("nothing was dropped")
                    return .ok
                }
            }
            // A large collection, or a small one in a large store, takes seconds (docs/benchmarks.md, "Drop").
            spinner.start("dropping '\(TerminalText.safe(name))'…")
            let report: DropReport
            do {
                defer { spinner.stop() }
                report = try await store.drop(collection: name)
            }
            output.line(Self.dropSummary(report, name: name))
            if let space = report.file.flatMap(Self.freeSpaceNote) { output.note(space) }
            if sources.collection?.lowercased() == name.lowercased() {
                sources.collection = nil
                output.note("local searches now cover every collection")
            }
            return .ok
        } catch is CancellationError {
            // The drop is one transaction, which the interruption rolled back.
            output.note("drop interrupted; nothing was dropped")
            return .failed
        } catch {
            output.error(ErrorText.describe(error))
            return .failed
        }
    }

    /// "dropped the collection 'x': 120 tweets deleted, …": what went, what stayed and why.
    static func dropSummary(_ report: DropReport, name: String) -> String {
        let deleted = "\(report.deleted) tweet\(report.deleted == 1 ? "" : "s") deleted"
        var line = "dropped the collection '\(TerminalText.safe(name))': \(deleted)"
        if report.kept > 0 { line += ", \(report.kept) kept because other collections hold them too" }
        if report.referenced > 0 {
            line +=
                ", \(report.referenced) kept out of searches because remaining tweets quote, retweet or reply to "
                + (report.referenced == 1 ? "it" : "them")
        }
        let objects = [
            counted(report.includedTweets, "tweet", "they quoted, retweeted or replied to"),
            counted(report.users, "user", nil), counted(report.media, "media item", nil),
        ].compactMap { $0 }
        guard let last = objects.last else { return line }
        let list = objects.count == 1 ? last : objects.dropLast().joined(separator: ", ") + " and " + last
        return line + "; also gone, since no remaining tweet names them: \(list)"
    }

    /// After a drop that left much of the store file free: the file keeps its size (SQLite reuses free pages rather
    /// than giving them back), which a user who dropped to reclaim disk needs to hear, with the way to a small copy.
    /// Nil when the free part is small (under 16 MiB or a fifth of the file).
    static func freeSpaceNote(_ space: DropReport.FileSpace) -> String? {
        guard space.free >= 16 << 20, space.free * 5 >= space.size else { return nil }
        func megabytes(_ bytes: Int64) -> String { String(format: "%.0f MB", Double(bytes) / 1_000_000) }
        return "the store file keeps its \(megabytes(space.size)): \(megabytes(space.free)) of it is now free space "
            + "that later imports reuse; 'backup FILE' writes a compact copy"
    }

    /// "3 users", or nil for none.
    private static func counted(_ count: Int, _ noun: String, _ tail: String?) -> String? {
        guard count > 0 else { return nil }
        return "\(count) \(noun)\(count == 1 ? "" : "s")" + (tail.map { " " + $0 } ?? "")
    }
}
