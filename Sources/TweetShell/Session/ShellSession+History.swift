import Foundation
import LineEditor
import TweetStore

extension ShellSession {
    /// `history searches` lists every recorded search, and `again N` reaches each of them: a cap here once hid the
    /// oldest ones from both.
    static let allSearches = Int(Int32.max)

    /// `history`: earlier commands, numbered for `!N`; `history searches`: earlier searches, numbered for `again N`.
    func listHistory(searches: Bool) async -> CommandStatus {
        if !searches {
            guard let entries = history?.entries, !entries.isEmpty else {
                output.note("no command history yet")
                return .ok
            }
            let width = String(entries.count).count
            output.lines(
                entries.enumerated().map { index, line in
                    let number = String(index + 1)
                    return String(repeating: " ", count: width - number.count) + output.style.number(number) + "  "
                        + TerminalText.safe(line, lineBreak: " ")
                })
            return .ok
        }
        do {
            let entries = try await store.searchHistory(limit: Self.allSearches)
            guard !entries.isEmpty else {
                output.note("no searches yet")
                return .ok
            }
            let now = Date()
            output.lines(
                entries.enumerated().map { index, entry in
                    let more = entry.nextCursor == nil ? "" : output.style.dim("  (more available)")
                    let scope = HistoryScope(recorded: entry.source)?.label ?? entry.source
                    return
                        "\(output.style.number(String(index + 1)))  [\(TerminalText.safe(scope, lineBreak: " "))] "
                        + TerminalText.safe(entry.query, lineBreak: " ") + "  "
                        + output.style.dim(RelativeTime.ago(entry.lastRun, now: now)) + more
                })
            output.note("again N re-runs one (from the cache); again N --new fetches only what is newer")
            return .ok
        } catch {
            output.error(ErrorText.describe(error))
            return .failed
        }
    }

    /// `again N [--new] [--refresh]`: re-runs search N of `history searches`, on the source it ran on.
    func again(_ number: Int, new: Bool, refresh: Bool, reader: (any LineReader)?) async -> CommandStatus {
        do {
            let entries = try await store.searchHistory(limit: Self.allSearches)
            guard number <= entries.count else {
                output.error("no search \(number): 'history searches' lists \(entries.count)")
                return .failed
            }
            let entry = entries[number - 1]
            let scope = HistoryScope(recorded: entry.source)
            var options = SearchOptions(query: entry.query, source: scope?.source, newOnly: new, refresh: refresh)
            // Inside the collection it ran in, whatever the `collection` setting is now.
            options.collection = scope?.collection
            output.note("search \(entry.query)" + (scope?.collection.map { " --in \($0)" } ?? ""))
            return await execute(.search(options), reader: reader)
        } catch {
            output.error(ErrorText.describe(error))
            return .failed
        }
    }
}

/// Expands `!N`, `!!` and `!prefix` against the command history, as shells do.
public enum HistoryExpansion {
    /// The line a `!` reference stands for; nil when `line` is not one. Throws when the reference matches nothing.
    public static func expand(_ line: String, entries: [String]) throws(CommandError) -> String? {
        guard line.hasPrefix("!"), line.count > 1 else { return nil }
        let reference = String(line.dropFirst())
        if reference == "!" {
            guard let last = entries.last else { throw CommandError("!!: no earlier command") }
            return last
        }
        if let number = Int(reference) {
            guard number >= 1, number <= entries.count else {
                throw CommandError("!\(number): history has \(entries.count) entr\(entries.count == 1 ? "y" : "ies")")
            }
            return entries[number - 1]
        }
        guard let match = entries.last(where: { $0.hasPrefix(reference) && !$0.hasPrefix("!") }) else {
            throw CommandError("!\(reference): no earlier command starts with '\(reference)'")
        }
        return match
    }
}
