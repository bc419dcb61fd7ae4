import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Lets the shell end in order when a signal would kill it: SIGTERM, SIGHUP, SIGPIPE (stdout's reader went away, as in
/// `tweetsh -c … | head -1`) and SIGINT outside a running command (Ctrl-C while a piped shell waits for input).
///
/// Ending in order means closing the store, which folds its write-ahead log into the `.sqlite` file, so a copy of that
/// file alone is complete. The handler only writes the signal's number to a pipe (async-signal-safe); a watcher thread
/// runs the cleanup, then restores the default action and raises the signal again, so the parent still sees the
/// process die of it. SIGPIPE is raised by a write on the thread that wrote; that thread waits inside the handler
/// until the watcher ends the process, so it cannot go on after the failed write.
///
/// The line editor's SIGINT handling at the prompt, and `InterruptMonitor` while a command runs, put this handler
/// back when they are done, as they do with any handler they find.
public final class ExitSignals: @unchecked Sendable {
    /// The process-wide instance: signal dispositions are per process.
    public static let shared = ExitSignals()
    /// The signals handled.
    public static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGPIPE]

    private let lock = NSLock()
    private var cleanup: (@Sendable () -> Void)?
    private var installed = false

    private init() {}

    /// Runs `cleanup` once before the process ends by one of `signals`; a later call replaces the cleanup.
    public func install(_ cleanup: @escaping @Sendable () -> Void) {
        lock.lock()
        defer { lock.unlock() }
        self.cleanup = cleanup
        guard !installed else { return }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return }
        installed = true
        exitPipeWrite = fds[1]
        let readEnd = fds[0]
        let thread = Thread { [self] in
            var byte: UInt8 = 0
            while true {
                let count = read(readEnd, &byte, 1)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { return }
                end(by: Int32(byte))
            }
        }
        thread.name = "tweetsh-exit-signals"
        thread.start()
        var action = sigaction()
        action.__sigaction_handler.sa_handler = exitSignalHandler
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        for signal in Self.signals { sigaction(signal, &action, nil) }
    }

    private func end(by signal: Int32) -> Never {
        lock.lock()
        let cleanup = self.cleanup
        self.cleanup = nil
        lock.unlock()
        cleanup?()
        Glibc.signal(signal, SIG_DFL)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, signal)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        raise(signal)
        _exit(128 + signal)
    }
}

/// The pipe the signal handler writes to; set once before any handler is installed.
nonisolated(unsafe) private var exitPipeWrite: Int32 = -1

private func exitSignalHandler(_ signal: Int32) {
    var byte = UInt8(truncatingIfNeeded: signal)
    _ = write(exitPipeWrite, &byte, 1)
    if signal == SIGPIPE {
        while true { pause() }
    }
}
