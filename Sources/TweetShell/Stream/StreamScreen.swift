import Foundation
import StreamCore
import TweetKit
import XAPI

#if canImport(Glibc)
    import Glibc
#endif

/// The `stream` screen: takes over the terminal as `live` does and draws the stream's status line and its newest
/// tweets, at most ten frames a second whatever the rate.
///
/// Backpressure: tweets arriving faster than frames are drawn are all stored (the writer got them before the state was
/// published), but only the newest that fit are drawn; the rest are counted as "not drawn" on the last line. The state
/// holds at most `StreamState.keptTweets` tweets, so memory stays bounded. q, Esc or Ctrl-C stops the stream.
final class StreamScreen: @unchecked Sendable {
    private let viewModel: StreamViewModel
    private let style: Style
    private let collection: String
    private let terminal: RawTerminal
    private let input: Int32
    private let lock = NSLock()
    private var latest = StreamState()
    private var finished = false
    private var wakeWrite: Int32 = -1
    private var notDrawn = 0
    private var drawnTotal = 0

    init(viewModel: StreamViewModel, style: Style, collection: String, input: Int32 = 0, output: Int32 = 1) {
        self.viewModel = viewModel
        self.style = style
        self.collection = collection
        self.input = input
        terminal = RawTerminal(input: input, output: output)
    }

    /// Runs the screen on its own thread until the stream ends or the user stops it; nil, or why the terminal could not
    /// be taken over.
    func run() async -> String? {
        await withCheckedContinuation { continuation in
            let thread = Thread { [self] in continuation.resume(returning: runBlocking()) }
            thread.name = "tweetsh-stream"
            thread.start()
        }
    }

    /// Ends the screen (the stream has ended).
    func close() {
        lock.lock()
        finished = true
        let wake = wakeWrite
        lock.unlock()
        poke(wake)
    }

    /// Tweets that arrived but were never on screen.
    var undrawn: Int { lock.withLock { notDrawn } }

    private func poke(_ fd: Int32) {
        guard fd >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(fd, &byte, 1)
    }

    private func runBlocking() -> String? {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return "stream: cannot create a pipe (errno \(errno))" }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        defer {
            lock.withLock { wakeWrite = -1 }
            Glibc.close(fds[0])
            Glibc.close(fds[1])
        }
        do {
            try terminal.enter(wakeDescriptor: fds[1])
        } catch {
            return String(describing: error)
        }
        defer { terminal.leave() }
        lock.withLock { wakeWrite = fds[1] }
        // The state changes per tweet; only the latest is kept, and the loop draws on its own clock, so a burst of
        // thousands of tweets costs one frame, not thousands.
        let subscription = viewModel.$state.sink { [weak self] state in
            guard let self else { return }
            lock.withLock { latest = state }
        }
        defer { subscription.cancel() }
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            if lock.withLock({ finished }) { return nil }
            var polls = [
                pollfd(fd: input, events: Int16(POLLIN), revents: 0),
                pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&polls, 2, 100)
            if ready < 0 && errno != EINTR { return nil }
            if polls[1].revents & Int16(POLLIN) != 0 { while read(fds[0], &buffer, buffer.count) > 0 {} }
            if polls[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                let count = read(input, &buffer, buffer.count)
                if count == 0 {
                    viewModel.stop.send(())
                    return nil
                }
                // Ctrl-C, Ctrl-D, Esc or q: stop; the command commits the last batch and prints the summary.
                if count > 0, buffer[0..<count].contains(where: { [3, 4, 27, UInt8(ascii: "q")].contains($0) }) {
                    viewModel.stop.send(())
                }
            }
            draw()
        }
    }

    private func draw() {
        let size = terminal.size()
        let state = lock.withLock { latest }
        let rows = max(1, size.rows - 4)
        let arrived = state.received - drawnTotal
        if arrived > 0 {
            let onScreen = min(arrived, rows)
            lock.withLock { notDrawn += arrived - onScreen }
            drawnTotal = state.received
        }
        let undrawn = lock.withLock { notDrawn }
        var lines = [DisplayWidth.truncate(StreamLines.status(state, collection: collection), to: size.columns)]
        lines.append(
            style.dim(DisplayWidth.truncate(state.notices.last.map { TerminalText.safe($0) } ?? "", to: size.columns)))
        let shown = state.recent.suffix(rows)
        for tweet in shown { lines.append(StreamLines.tweet(tweet, width: size.columns, style: style)) }
        while lines.count < rows + 2 { lines.append("") }
        lines.append(
            style.dim(
                DisplayWidth.truncate(
                    "\(undrawn) not drawn (all stored) · q or Ctrl-C stops", to: size.columns)))
        let frame = "\u{1B}[?25l\u{1B}[H" + lines.joined(separator: "\u{1B}[K\r\n") + "\u{1B}[K\u{1B}[J"
        terminal.write(frame)
    }
}

/// The text of the stream's lines, shared by the screen and the plain output.
enum StreamLines {
    /// `● connected · 1,204 tweets (12 recovered) · 2,010/min · heartbeat 3 s ago · into stream`.
    static func status(_ state: StreamState, collection: String, now: Date = Date()) -> String {
        let phase: String
        switch state.phase {
        case .connecting(let attempt): phase = attempt > 1 ? "reconnecting (attempt \(attempt))" : "connecting"
        case .connected: phase = "connected"
        case .waiting(let notice): phase = "reconnecting in \(notice.secondsLeft) s"
        case .stopped(let reason): phase = "stopped" + (reason.map { ": \($0)" } ?? "")
        }
        var parts = [phase, "\(state.received) tweet\(state.received == 1 ? "" : "s")"]
        if state.recovered > 0 { parts[1] += " (\(state.recovered) recovered)" }
        parts.append("\(state.tweetsPerMinute)/min")
        if let beat = state.lastHeartbeat {
            parts.append("heartbeat \(max(0, Int(now.timeIntervalSince(beat)))) s ago")
        }
        parts.append("into \(collection)")
        return parts.joined(separator: " · ")
    }

    /// One tweet on one line: `@handle: text [tag, tag]`, sanitised.
    static func tweet(_ tweet: StreamedTweet, width: Int, style: Style) -> String {
        let first = tweet.page.tweets[0]
        let handle = tweet.page.user(first.authorID).map { "@" + $0.username } ?? "@?"
        let tags = tweet.tags.isEmpty ? "" : " [" + tweet.tags.joined(separator: ", ") + "]"
        let mark = tweet.recovered ? " (recovered)" : ""
        let text = TerminalText.safe(first.displayText(in: tweet.page), lineBreak: " ")
        let plain = TerminalText.safe(handle) + ": " + text
        let room = max(10, width - DisplayWidth.of(tags + mark))
        return DisplayWidth.truncate(plain, to: room) + style.tag(TerminalText.safe(tags)) + style.dim(mark)
    }
}
