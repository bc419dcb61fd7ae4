import Foundation
import StreamCore
import TweetKit
import TweetStore

/// The explore commands' part of a session: their view model, and the printer subscribed to its outcomes.
final class ExploreSession: @unchecked Sendable {
    let viewModel: ExploreViewModel
    let printer: ExplorePrinter
    private var subscriptions = Set<AnyCancellable>()

    init(
        store: any CollectionStore, sources: SourceState, output: ShellOutput, environment: [String: String],
        settings: @escaping @Sendable () -> OutcomePrinter.Settings
    ) {
        viewModel = ExploreViewModel(
            service: ShellExploreService(store: store, sources: sources), scheduler: ImmediateScheduler.shared)
        printer = ExplorePrinter(
            output: output, glyphs: ChartGlyphs(unicode: ChartGlyphs.localeIsUTF8(environment: environment)),
            settings: settings)
        // The printer subscribes first, so an answer is printed before the REPL hears the command is done.
        viewModel.outcomes.subscribe(printer)
    }

    /// Keeps the session's subscriptions to the explore outputs.
    func keep(_ cancellable: AnyCancellable) { cancellable.store(in: &subscriptions) }
}

extension ShellSession {
    /// Binds what the explore commands share with the rest of the session: rate-limit waits go to the spinner, and a
    /// new search result list replaces the last count as the current result.
    func bindExplore() {
        let waitLines = WaitLines()
        explore.keep(
            explore.viewModel.waits.sink { [output, spinner] notice in
                if spinner.isEnabled {
                    spinner.update(notice.reason)
                } else if let line = waitLines.line(for: notice) {
                    output.note(line)
                }
            })
        explore.keep(
            explore.viewModel.pages.sink { [spinner] pages in
                spinner.update("counting… \(pages) page\(pages == 1 ? "" : "s")")
            })
        explore.keep(viewModel.$results.dropFirst().sink { [explore] _ in explore.viewModel.clearCount() })
    }

    /// Runs `count`, `top`, `drill` or `stats`.
    func explore(_ command: ExploreCommand) async -> CommandStatus {
        switch command {
        case .count(let options):
            return await runExplore(label: "counting") { id in
                self.explore.viewModel.counts.send(Tagged(id: id, value: options))
            }
        case .top(var options):
            if options.query == nil { options.results = viewModel.results }
            return await runExplore(label: "ranking") { id in
                self.explore.viewModel.tops.send(Tagged(id: id, value: options))
            }
        case .drill(let number):
            guard let list = explore.viewModel.currentTop else {
                output.error("no top list to drill into: run 'top hashtags <query>' first")
                return .failed
            }
            let query: String
            switch list.drill(number) {
            case .query(let drilled): query = drilled
            case .noRow:
                output.error("the last top list has \(list.rows.count) rows; there is no row \(number)")
                return .failed
            case .unsearchable(let key):
                // Better no search than one that quietly means other terms and finds the wrong tweets.
                output.error(
                    "row \(number) of the last top list, '\(key)', cannot be searched for: "
                        + "'\(list.kind.queryTerm(for: key))' would mean other terms")
                return .failed
            }
            // Where the ranked tweets came from: the source, and a local collection.
            var options = SearchOptions(query: query, source: list.sourceName.flatMap(SourceKind.init(rawValue:)))
            options.collection = list.collection
            output.note("search " + query + (list.collection.map { " --in \($0)" } ?? ""))
            return await execute(.search(options), reader: nil)
        case .stats(let collection):
            return await runExplore(label: "reading the collection") { id in
                self.explore.viewModel.overviews.send(Tagged(id: id, value: collection))
            }
        }
    }

    /// Writes the current count when it is the current result: JSON lines (one object per bucket) or, for a `.csv`
    /// file or `--format csv`, twarc2's counts columns. Nil when the current result is a search's list.
    func exportCount(to rawPath: String, format: ExportFormat) async -> CommandStatus? {
        guard let series = explore.viewModel.currentCount else { return nil }
        guard let file = await createExportFile(rawPath) else { return .failed }
        let path = file.path
        let text = format == .csv ? ExplorePrinter.csv(series) : ExplorePrinter.jsonLines(series)
        do {
            try file.handle.write(contentsOf: Data(text.utf8))
            try commit(file)
        } catch {
            output.error("writing \(path) failed: \(ErrorText.describe(error)); \(file.abandon())")
            return .failed
        }
        let csv = format == .csv ? "csv" : "jsonl"
        reportWritten(
            "wrote \(series.buckets.count) count\(series.buckets.count == 1 ? "" : "s") to", file, "as \(csv)")
        return .ok
    }

    /// Sends an explore request, shows the spinner, and waits for its outcome; Ctrl-C sends its id into
    /// `cancellations`. Ids come from the search view model so they never repeat across the two.
    private func runExplore(label: String, _ start: @escaping (Int) -> Void) async -> CommandStatus {
        spinner.start(label + "…")
        defer { spinner.stop() }
        let explore = self.explore.viewModel
        let id = viewModel.nextID()
        let outcome = await withTaskCancellationHandler {
            await explore.perform(id: id, start)
        } onCancel: {
            explore.cancellations.send(id)
        }
        switch outcome {
        case .answered(_, .stats(_, let tweets, _)):
            viewModel.adopt(tweets)
            return .ok
        case .answered: return .ok
        case .failed(_, let message):
            output.error(message)
            return .failed
        case .cancelled:
            output.note("cancelled")
            return .failed
        }
    }
}
