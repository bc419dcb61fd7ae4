import Foundation
import StreamCore
import TweetKit

/// The subscriber that prints each command's results in the current format: compact rows, detail blocks,
/// twarc2 JSON lines or twarc-csv rows. Subscribed to the view model's outcomes before the REPL awaits them, so
/// results are printed before the prompt returns.
public final class OutcomePrinter: Subscriber, @unchecked Sendable {
    /// What the printer needs to know at print time; read per outcome so `format` and resizes apply at once.
    public struct Settings: Sendable {
        /// The format.
        public var format: OutputFormat
        /// Terminal columns, for layouts that wrap (`detail`).
        public var width: Int
        /// Where compact rows are cut: the terminal's width, or `--width`/`COLUMNS`; nil (piped output) never cuts.
        public var rowWidth: Int?
        /// The time ages are measured from.
        public var now: Date
        /// The columns of the csv format.
        public var csvColumns: TwarcCSVColumns

        /// Creates settings for a terminal: rows are cut at `width`.
        public init(format: OutputFormat, width: Int, now: Date, csvColumns: TwarcCSVColumns = .twarcDefaults) {
            self.init(format: format, width: width, rowWidth: width, now: now, csvColumns: csvColumns)
        }

        /// Creates settings whose rows are cut at `rowWidth`, or never when it is nil.
        public init(
            format: OutputFormat, width: Int, rowWidth: Int?, now: Date, csvColumns: TwarcCSVColumns = .twarcDefaults
        ) {
            self.format = format
            self.width = width
            self.rowWidth = rowWidth
            self.now = now
            self.csvColumns = csvColumns
        }
    }

    private let output: ShellOutput
    private let settings: @Sendable () -> Settings
    private let lock = NSLock()
    private var subscription: (any Subscription)?
    /// The columns of the last CSV header printed; rows under the same columns share it.
    private var csvHeaderColumns: TwarcCSVColumns?

    /// Creates a printer writing to `output`.
    public init(output: ShellOutput, settings: @escaping @Sendable () -> Settings) {
        self.output = output
        self.settings = settings
    }

    /// Asks for every outcome.
    public func receive(subscription: any Subscription) {
        lock.withLock { self.subscription = subscription }
        subscription.request(.unlimited)
    }

    /// Prints the items a command added, and its note and warnings.
    public func receive(_ outcome: CommandOutcome) -> Subscribers.Demand {
        guard case .results(_, let added, let list, let note, let warnings) = outcome else { return .none }
        printResults(added, list: list, note: note, warnings: warnings, settings: settings())
        return .none
    }

    /// Prints results with their note and warnings (also used by `thread`, which builds its list itself).
    public func printResults(
        _ added: [ResultItem], list: ResultList, note: String?, warnings: [String], settings: Settings
    ) {
        if let note { output.note(note) }
        for warning in warnings { output.warning(warning) }
        print(added, list: list, settings: settings)
        if added.isEmpty {
            output.note(list.items.isEmpty ? "no results" : "no new results")
        } else if list.nextCursor != nil, settings.format == .compact || settings.format == .detail {
            output.note("'more' loads the next page")
        }
    }

    /// Nothing to do when the outcomes end (the shell is closing).
    public func receive(completion: Subscribers.Completion<Never>) {}

    /// Prints items in the current format (also used by `thread` and `user`).
    public func print(_ items: [ResultItem], list: ResultList, settings: Settings) {
        switch settings.format {
        case .compact:
            output.lines(
                CompactRenderer(width: settings.rowWidth, style: output.style, now: settings.now).lines(for: items))
        case .detail:
            let renderer = DetailRenderer(width: settings.width, style: output.style)
            for item in items { output.lines(renderer.lines(for: item) + [""]) }
        case .json, .csv:
            guard let page = list.pages.last else { return }
            let wanted = Set(items.map(\.tweet.id))
            var subset = page
            subset.tweets = page.tweets.filter { wanted.contains($0.id) }
            var exporter = PageExporter(
                format: settings.format == .json ? .twarc2JSONL : .csv, columns: settings.csvColumns)
            var text = ""
            exporter.write(subset, to: &text)
            if settings.format == .csv {
                // One header per session and choice of columns: drop the exporter's header when it was printed.
                let written = lock.withLock { () -> Bool in
                    defer { csvHeaderColumns = settings.csvColumns }
                    return csvHeaderColumns == settings.csvColumns
                }
                if written, let newline = text.firstIndex(of: "\n") {
                    text = String(text[text.index(after: newline)...])
                }
            }
            if settings.format == .csv { output.csv(text) } else { output.json(text) }
        }
    }
}
