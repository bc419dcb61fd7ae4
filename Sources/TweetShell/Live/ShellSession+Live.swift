import Foundation
import StreamFoundation

extension ShellSession {
    /// `live [query]`: results that update as you type, on a screen of their own.
    ///
    /// Esc or Ctrl-C leaves with the live results as the current list, so `more` and `show N` continue from them, and
    /// records that one query in the search history; Ctrl-D leaves the current list as it was and records nothing.
    func live(_ initialQuery: String?) async -> CommandStatus {
        guard isInteractive, TerminalSize.isTerminal(STDIN_FILENO), TerminalSize.isTerminal(STDOUT_FILENO) else {
            output.error("live needs an interactive terminal; in scripts use search <query>")
            return .failed
        }
        let settings = LiveSettings.defaults(for: sources.current, pageSize: pageSize)
        let service = ShellSearchService(store: store, sources: sources)
        let queue = DispatchQueue(label: "tweetsh.live")
        let liveModel = LiveViewModel(
            service: service, settings: settings, scheduler: queue, initialQuery: initialQuery ?? "",
            volume: ShellExploreService(store: store, sources: sources))
        defer { liveModel.stop() }
        let screen = LiveScreen(viewModel: liveModel, style: output.style)
        switch await screen.run(initialQuery: initialQuery ?? "") {
        case .failed(let message):
            output.error(message)
            return .failed
        case .discard:
            output.note("left live; the current results are unchanged")
            return .ok
        case .keep(var list):
            guard let search = list.search else {
                output.note("left live without results; the current results are unchanged")
                return .ok
            }
            // From here on the list is an ordinary search: `more` records its cursor as it pages.
            list.search?.recordsHistory = true
            viewModel.adopt(list)
            rememberQuery(search.query)
            do {
                try await service.remember(list)
            } catch {
                output.warning("'\(search.query)' was not saved in the search history: \(ErrorText.describe(error))")
            }
            let count = list.items.count
            let more = list.nextCursor != nil ? "; more loads the next page" : ""
            output.note(
                "live: \(count) result\(count == 1 ? "" : "s") for '\(search.query)' are now the current list "
                    + "(show N opens one\(more))")
            return .ok
        }
    }
}
