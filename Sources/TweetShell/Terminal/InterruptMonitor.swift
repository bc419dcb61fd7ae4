import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Turns Ctrl-C (SIGINT) while a command runs into a call, instead of the default of killing the process.
///
/// At the prompt the line editor handles Ctrl-C itself (it installs its own handler for the duration of a read and
/// restores ours afterwards). While a command runs the terminal is in cooked mode and sends SIGINT: our handler only
/// writes a byte to a pipe (async-signal-safe); a watcher thread reads it and calls the current handler, so nothing
/// unsafe runs inside the signal handler.
public final class InterruptMonitor: @unchecked Sendable {
    private let lock = NSLock()
    private var handler: (@Sendable () -> Void)?
    private var previous = sigaction()
    private var armed = false

    /// The process-wide monitor: there is one SIGINT.
    public static let shared = InterruptMonitor()

    private init() {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return }
        interruptPipeWrite = fds[1]
        let readEnd = fds[0]
        let thread = Thread { [weak self] in
            var byte: UInt8 = 0
            while true {
                let count = read(readEnd, &byte, 1)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { return }
                guard let self else { return }
                self.lock.lock()
                let handler = self.handler
                self.lock.unlock()
                handler?()
            }
        }
        thread.name = "tweetsh-interrupts"
        thread.start()
    }

    /// Catches SIGINT and calls `handler` for each, until `disarm`.
    public func arm(_ handler: @escaping @Sendable () -> Void) {
        lock.lock()
        defer { lock.unlock() }
        self.handler = handler
        guard !armed else { return }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = interruptSignalHandler
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        sigaction(SIGINT, &action, &previous)
        armed = true
    }

    /// Restores what SIGINT did before `arm`.
    public func disarm() {
        lock.lock()
        defer { lock.unlock() }
        handler = nil
        guard armed else { return }
        sigaction(SIGINT, &previous, nil)
        armed = false
    }
}

/// The pipe the signal handler writes to; set once before any handler is installed.
nonisolated(unsafe) private var interruptPipeWrite: Int32 = -1

private func interruptSignalHandler(_ signal: Int32) {
    var byte: UInt8 = 1
    _ = write(interruptPipeWrite, &byte, 1)
}
