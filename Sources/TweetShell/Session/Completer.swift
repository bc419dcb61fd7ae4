import LineEditor
import TweetKit

/// Tab completion: command names, their flags, @handles and #tags seen in results, words of earlier queries, CSV
/// column names after `--columns`, and collection names where a collection is named.
final class Completer: @unchecked Sendable {
    private let session: ShellSession

    init(session: ShellSession) {
        self.session = session
    }

    func complete(_ request: CompletionRequest) -> [String] {
        // Handles and tags come from tweets; one holding a control character is no handle anyone types, and listing
        // it would write the character to the terminal.
        Self.candidates(for: request, words: session.completionWords()).filter { !TerminalText.needsWork($0) }
    }

    /// Commands whose first argument is a collection's name, and the words they take besides names.
    private static let collectionCommands: [String: [String]] = ["drop": [], "collection": ["all"], "stats": ["all"]]
    /// Flags followed by a collection's name.
    private static let collectionFlags: Set<String> = ["--in", "--into", "--as"]

    /// The candidates for the word before the cursor; each replaces that word.
    static func candidates(for request: CompletionRequest, words: CompletionWords) -> [String] {
        let word = request.word
        let before = request.textBeforeCursor
        let precedingWords = before.split(separator: " ").dropLast(word.isEmpty ? 0 : 1)
        if precedingWords.isEmpty {
            let names = CommandSpec.all.map(\.name)
            return names.filter { $0.hasPrefix(word.lowercased()) }
        }
        let command = CommandSpec.named(String(precedingWords[0]))
        let collectionWords =
            precedingWords.last.map { collectionFlags.contains(String($0)) } == true
            ? [] : precedingWords.count == 1 ? command.flatMap { collectionCommands[$0.name] } : nil
        if let collectionWords {
            return (words.collections + collectionWords).filter { $0.lowercased().hasPrefix(word.lowercased()) }
        }
        if precedingWords.count > 1, precedingWords.last == "--columns" {
            // Complete the name after the last comma, keeping the names before it.
            let comma = word.lastIndex(of: ",")
            let chosen = comma.map { String(word[...$0]) } ?? ""
            let partial = comma.map { String(word[word.index(after: $0)...]) } ?? word
            return TwarcCSVColumns.twarcDefaults.names.filter { $0.hasPrefix(partial) }.map { chosen + $0 }
        }
        if word.hasPrefix("@") {
            return words.handles.map { "@" + $0 }.filter { $0.lowercased().hasPrefix(word.lowercased()) }
        }
        if word.hasPrefix("#") {
            return words.tags.map { "#" + $0 }.filter { $0.lowercased().hasPrefix(word.lowercased()) }
        }
        if word.hasPrefix("-"), let command {
            return command.flags.filter { $0.hasPrefix(word) }
        }
        guard let command else { return [] }
        if command.name == "search" || command.name == "user" {
            var seen = Set<String>()
            var result: [String] = []
            for query in words.queries {
                for token in query.split(separator: " ") where token.hasPrefix(word) && !word.isEmpty {
                    if seen.insert(String(token)).inserted { result.append(String(token)) }
                }
            }
            return result
        }
        return command.flags.filter { !$0.hasPrefix("-") && $0.hasPrefix(word.lowercased()) }
    }
}

/// What completion offers besides commands and flags, gathered by the session.
struct CompletionWords {
    /// @handles seen in results.
    var handles: [String] = []
    /// #tags seen in results.
    var tags: [String] = []
    /// Earlier queries, newest first.
    var queries: [String] = []
    /// The store's collection names.
    var collections: [String] = []
}
