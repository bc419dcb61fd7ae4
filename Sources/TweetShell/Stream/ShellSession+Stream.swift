import Foundation
import StreamCore
import StreamFoundation
import TweetKit
import TweetStore
import XAPI

#if canImport(Glibc)
    import Glibc
#endif

extension ShellSession {
    /// `stream`: follows the filtered stream until `--limit`, `--for`, Ctrl-C, or a failure reconnecting cannot fix.
    ///
    /// On a terminal it has a screen of its own; otherwise (or with `--json`) each tweet is a twarc2 JSONL line on
    /// standard output and notices go to standard error. Either way every tweet is stored in the collection as it
    /// arrives, and the summary names the collection once the last batch is committed.
    func stream(_ options: StreamOptions) async -> CommandStatus {
        guard client.hasToken else {
            output.error("stream needs X API credentials; run auth (or set X_BEARER_TOKEN)")
            return .failed
        }
        guard !store.isReadOnly else {
            output.error("stream stores every tweet, but the store is read-only (\(store.readOnlyReason ?? ""))")
            return .failed
        }
        let collection = options.collection ?? StreamOptions.defaultCollection
        if let problem = CollectionName.problem(with: collection, flag: "--into") {
            output.error(problem)
            return .failed
        }
        let writer = StreamStoreWriter(store: store, collection: collection)
        let queue = DispatchQueue(label: "tweetsh.stream")
        let recovery = sources.api.map { api in
            GapRecoverySearch.recovery(rules: XAPIActiveRules(client: client), source: api)
        }
        let events = ReconnectingStream(
            connector: client, scheduler: queue, heartbeatTimeout: Self.streamHeartbeatTimeout(), recovery: recovery)
        let viewModel = StreamViewModel(
            events: events, writer: writer, scheduler: queue, duration: options.duration, limit: options.limit)
        let onScreen =
            !options.json && isInteractive && TerminalSize.isTerminal(STDIN_FILENO)
            && TerminalSize.isTerminal(STDOUT_FILENO)
        var subscriptions = Set<AnyCancellable>()
        let output = self.output
        let final: StreamState
        var undrawn = 0
        if onScreen {
            let screen = StreamScreen(viewModel: viewModel, style: output.style, collection: collection)
            let finishedState = Task { await viewModel.finished() }
            async let drawn: String? = screen.run()
            final = await withTaskCancellationHandler {
                await finishedState.value
            } onCancel: {
                viewModel.stop.send(())
            }
            screen.close()
            if let problem = await drawn { output.warning(problem) }
            undrawn = screen.undrawn
        } else {
            let settings = client.configuration.settings
            let stamp = StreamJSONLines(
                version: settings.userAgent,
                url: settings.baseURL.absoluteString.trimmingTrailingSlashes() + XAPIClient.filteredStreamPath)
            viewModel.tweets.sink { tweet in output.json(stamp.line(for: tweet)) }.store(in: &subscriptions)
            viewModel.notices.sink { output.note("stream: \($0)") }.store(in: &subscriptions)
            final = await withTaskCancellationHandler {
                await viewModel.finished()
            } onCancel: {
                viewModel.stop.send(())
            }
        }
        viewModel.cancel()
        subscriptions.removeAll()
        let summary = await writer.finish()
        return report(final, summary: summary, undrawn: undrawn)
    }

    private func report(_ state: StreamState, summary: StreamStoreWriter.Summary, undrawn: Int) -> CommandStatus {
        var line =
            "stream: \(summary.stored) tweet\(summary.stored == 1 ? "" : "s") stored in the collection '"
            + "\(summary.collectionName)'"
        if summary.recovered > 0 {
            line +=
                " (\(summary.recovered) recovered after disconnections, also in '\(summary.collectionName)-recovered')"
        }
        if state.reconnects > 0 { line += "; \(state.reconnects) reconnect\(state.reconnects == 1 ? "" : "s")" }
        if undrawn > 0 { line += "; \(undrawn) arrived too fast to draw" }
        output.note(line + "; search --in \(summary.collectionName) <query> finds them")
        if let failure = summary.failure {
            output.error("some tweets could not be stored: \(failure)")
            return .failed
        }
        if case .stopped(let reason?) = state.phase {
            output.error("the stream stopped: \(reason)")
            return .failed
        }
        return .ok
    }

    /// X's 20 s heartbeat plus a second. `TWEETSH_STREAM_HEARTBEAT_TIMEOUT` (seconds) shortens it for real-time
    /// end-to-end tests only; it is not a user setting.
    static func streamHeartbeatTimeout() -> Duration {
        if let text = ProcessInfo.processInfo.environment["TWEETSH_STREAM_HEARTBEAT_TIMEOUT"],
            let seconds = Double(text), seconds > 0
        {
            return .milliseconds(Int64(seconds * 1000))
        }
        return .seconds(21)
    }
}

/// Writes streamed tweets as twarc2 writes them: the line as the stream sent it, with a `__twarc` object added.
struct StreamJSONLines: Sendable {
    let version: String
    /// The stream's URL as this shell asked for it (the configured API base), as twarc2 records the URL it fetched.
    var url = "https://api.x.com" + XAPIClient.filteredStreamPath

    func line(for tweet: StreamedTweet, at date: Date = Date()) -> String {
        var bytes = tweet.line
        while let last = bytes.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\r") { bytes.removeLast() }
        guard bytes.last == UInt8(ascii: "}") else { return String(decoding: bytes, as: UTF8.self) + "\n" }
        bytes.removeLast()
        // The block the store keeps with the tweet, so the line and a later export agree; a recovered tweet (from a
        // search, not the stream) is marked as such.
        if !tweet.recovered, let block = tweet.page.originals.twarc, let twarc = LineBlock.parts(block).twarc {
            return String(decoding: bytes, as: UTF8.self) + ",\"__twarc\":" + twarc.text + "}\n"
        }
        let stamp =
            ",\"__twarc\":{\"url\":" + GapRecoverySearch.jsonString(url) + ",\"version\":"
            + GapRecoverySearch.jsonString(version) + ",\"retrieved_at\":\"" + Self.timestamp(date) + "\""
            + (tweet.recovered ? ",\"recovered\":true" : "") + "}}\n"
        return String(decoding: bytes, as: UTF8.self) + stamp
    }

    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}

extension String {
    /// The text without the slashes it ends with: a base URL joins a path that starts with one.
    fileprivate func trimmingTrailingSlashes() -> String {
        var text = self
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }
}
