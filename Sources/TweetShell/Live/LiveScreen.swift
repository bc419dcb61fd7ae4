import Foundation
import StreamCore

#if canImport(Glibc)
    import Glibc
#endif

/// How a live session ended.
public enum LiveExit: Equatable, Sendable {
    /// Esc or Ctrl-C: these results become the shell's current list.
    case keep(ResultList)
    /// Ctrl-D or end of input: the current list stays as it was.
    case discard
    /// The terminal could not be taken over.
    case failed(String)
}

/// The live screen: takes over the terminal like fzf, feeds keystrokes to a `LiveViewModel` and draws its state.
///
/// One thread owns the terminal: it waits in poll(2) on the keyboard and on a wake pipe, and it alone draws. The view
/// model's state arrives on its scheduler's queue; the sink only stores it and writes a byte to the wake pipe. So do
/// SIGWINCH and SIGCONT (from the signal handler) and `stop()` (from a cancelled task).
public final class LiveScreen: @unchecked Sendable {
    private let viewModel: LiveViewModel
    private let style: Style
    private let sourceName: String
    private let terminal: RawTerminal
    private let input: Int32

    private let lock = NSLock()
    private var latest = LiveState()
    private var stopRequested = false
    private var wakeWrite: Int32 = -1

    private enum Mode {
        case list
        case detail(ResultItem)
    }

    /// Creates a screen over `viewModel`, reading keys from `input` and drawing on `output` (standard input and output;
    /// literals, because optimised builds can attribute STDIN_FILENO in a default argument to a module not imported here).
    public init(viewModel: LiveViewModel, style: Style, input: Int32 = 0, output: Int32 = 1) {
        self.viewModel = viewModel
        self.style = style
        self.input = input
        terminal = RawTerminal(input: input, output: output)
        sourceName = viewModel.settings.source == .x ? "X API" : "local"
    }

    /// Runs the screen on a thread of its own until the user leaves; cancelling the task leaves as Ctrl-C does.
    public func run(initialQuery: String) async -> LiveExit {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let thread = Thread { [self] in
                    continuation.resume(returning: runBlocking(initialQuery: initialQuery))
                }
                thread.name = "tweetsh-live"
                thread.start()
            }
        } onCancel: {
            stop()
        }
    }

    /// Asks the screen to leave as if Ctrl-C had been pressed.
    public func stop() {
        lock.lock()
        stopRequested = true
        let wake = wakeWrite
        lock.unlock()
        if wake >= 0 {
            var byte: UInt8 = 1
            _ = write(wake, &byte, 1)
        }
    }

    /// The loop. Returns how the user left; the terminal is restored on every path out.
    func runBlocking(initialQuery: String) -> LiveExit {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return .failed("live: cannot create a pipe (errno \(errno))") }
        let (wakeRead, wakeWriteEnd) = (fds[0], fds[1])
        for fd in fds {
            // Non-blocking: the reader drains it, and a writer (a signal handler among them) must never wait on it.
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        defer {
            lock.withLock { wakeWrite = -1 }
            close(wakeRead)
            close(wakeWriteEnd)
        }
        lock.lock()
        wakeWrite = wakeWriteEnd
        let stoppedEarly = stopRequested
        lock.unlock()
        if stoppedEarly { return .keep(currentState().list) }

        do {
            try terminal.enter(wakeDescriptor: wakeWriteEnd)
        } catch {
            return .failed(String(describing: error))
        }
        defer { terminal.leave() }

        let subscription = viewModel.$state.sink { [weak self] state in
            guard let self else { return }
            lock.lock()
            latest = state
            let wake = wakeWrite
            lock.unlock()
            if wake >= 0 {
                var byte: UInt8 = 2
                _ = write(wake, &byte, 1)
            }
        }
        defer { subscription.cancel() }

        var loop = Loop(screen: self, query: initialQuery)
        return loop.run(wakeRead: wakeRead)
    }

    fileprivate func currentState() -> LiveState {
        lock.withLock { latest }
    }

    fileprivate func takeStopRequest() -> Bool {
        lock.withLock { stopRequested }
    }

    /// The keyboard-and-drawing loop, with the state only the screen thread touches.
    private struct Loop {
        let screen: LiveScreen
        var query: String
        var decoder = LiveKeyDecoder()
        var selection = LiveSelection()
        var mode = Mode.list
        var spinnerFrame = 0
        var shownSearch: SearchOptions?
        var shownCount = 0

        init(screen: LiveScreen, query: String) {
            self.screen = screen
            self.query = query
        }

        mutating func run(wakeRead: Int32) -> LiveExit {
            draw()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let state = screen.currentState()
                let timeout: Int32 = decoder.hasPending ? 30 : state.isBusy ? 100 : 1000
                var polls = [
                    pollfd(fd: screen.input, events: Int16(POLLIN), revents: 0),
                    pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
                ]
                let ready = poll(&polls, 2, timeout)
                if ready < 0 {
                    if errno == EINTR { continue }
                    return .discard
                }
                var keys: [LiveKey] = []
                var dirty = false
                if ready == 0 {
                    keys = decoder.flush()
                    if state.isBusy {
                        spinnerFrame += 1
                        dirty = true
                    }
                }
                if polls[1].revents & Int16(POLLIN) != 0 {
                    // A new state, a resize, a return from a stop, or a request to leave.
                    while read(wakeRead, &buffer, buffer.count) > 0 {}
                    if screen.takeStopRequest() { return .keep(screen.currentState().list) }
                    dirty = true
                }
                if polls[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                    let count = read(screen.input, &buffer, buffer.count)
                    if count == 0 || (count < 0 && errno != EINTR && errno != EAGAIN) { return .discard }
                    if count > 0 { keys += decoder.feed(buffer[0..<count]) }
                }
                for key in keys {
                    if let exit = handle(key) { return exit }
                    dirty = true
                }
                if dirty { draw() }
            }
        }

        /// Applies one key; returns how to leave when the key leaves.
        mutating func handle(_ key: LiveKey) -> LiveExit? {
            let state = screen.currentState()
            let rows = layout().resultRows
            let count = state.list.items.count
            if key == .suspend {
                // What Ctrl-Z does in a cooked terminal: the SIGTSTP handler gives the terminal back before the stop
                // and takes it again on SIGCONT, which also wakes the loop to redraw.
                kill(getpid(), SIGTSTP)
                return nil
            }
            if case .detail = mode {
                // Any key returns to the results, except the keys that leave live, which leave from here too.
                switch key {
                case .escape, .interrupt: return .keep(state.list)
                case .endOfInput: return .discard
                default:
                    mode = .list
                    return nil
                }
            }
            switch key {
            case .text(let text):
                query += text.filter { !$0.isNewline }
                screen.viewModel.query.send(query)
            case .backspace:
                guard !query.isEmpty else { return nil }
                query.removeLast()
                screen.viewModel.query.send(query)
            case .clearQuery:
                query = ""
                screen.viewModel.query.send(query)
            case .deleteWord:
                while query.last == " " { query.removeLast() }
                while let last = query.last, last != " " { query.removeLast() }
                screen.viewModel.query.send(query)
            case .up: selection.move(by: -1, count: count, rows: rows)
            case .down:
                selection.move(by: 1, count: count, rows: rows)
                loadMoreIfAtEnd(state, rows: rows)
            case .pageUp: selection.page(by: -1, count: count, rows: rows)
            case .pageDown:
                let before = selection
                selection.page(by: 1, count: count, rows: rows)
                if selection == before || selection.isAtEnd(count: count) || selection.top + rows >= count {
                    loadMoreIfAtEnd(state, rows: rows, force: true)
                }
            case .home: selection.jump(toEnd: false, count: count, rows: rows)
            case .end:
                selection.jump(toEnd: true, count: count, rows: rows)
                loadMoreIfAtEnd(state, rows: rows)
            case .enter:
                if let item = state.list.items.indices.contains(selection.index)
                    ? state.list.items[selection.index] : nil
                {
                    mode = .detail(item)
                }
            case .escape, .interrupt:
                return .keep(state.list)
            case .endOfInput:
                return .discard
            case .other, .suspend:
                break
            }
            return nil
        }

        private func loadMoreIfAtEnd(_ state: LiveState, rows: Int, force: Bool = false) {
            guard state.list.nextCursor != nil, !state.isBusy else { return }
            if force || selection.isAtEnd(count: state.list.items.count) {
                screen.viewModel.loadMore.send(())
            }
        }

        func layout() -> LiveLayout {
            let size = screen.terminal.size()
            return LiveLayout(width: size.columns, height: size.rows, style: screen.style)
        }

        mutating func draw() {
            let layout = layout()
            let state = screen.currentState()
            // A new answer starts at its top; more pages keep the selection where it is.
            if state.list.search != shownSearch || state.list.items.count < shownCount {
                selection = LiveSelection()
            }
            shownSearch = state.list.search
            shownCount = state.list.items.count
            selection.clamp(count: state.list.items.count, rows: layout.resultRows)

            var frame = "\u{1B}[?25l\u{1B}[H"
            switch mode {
            case .list:
                let screenLines = layout.screen(
                    query: query, state: state, selection: selection,
                    sourceName: screen.sourceName, spinnerFrame: spinnerFrame)
                frame += screenLines.lines.joined(separator: "\u{1B}[K\r\n") + "\u{1B}[K"
                frame += "\u{1B}[1;\(screenLines.cursorColumn)H\u{1B}[?25h"
            case .detail(let item):
                frame += layout.detail(item).joined(separator: "\u{1B}[K\r\n") + "\u{1B}[K"
            }
            screen.terminal.write(frame)
        }
    }
}
