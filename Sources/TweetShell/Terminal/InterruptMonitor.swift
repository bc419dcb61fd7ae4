import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Turns Ctrl-C (SIGINT) while a command runs into a call, instead of the default of killing the process.
///
/// The line editor handles Ctrl-C at the prompt itself; between prompts the shell is in cooked mode, where the
/// terminal sends SIGINT. A dispatch signal source observes it on a queue, so nothing async-signal-unsafe runs
/// inside a handler.
public final class InterruptMonitor: @unchecked Sendable {
    private let source: any DispatchSourceSignal
    private let lock = NSLock()
    private var handler: (@Sendable () -> Void)?

    /// Starts watching SIGINT. Call `onInterrupt` to say what Ctrl-C does now.
    public init() {
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: DispatchQueue.global(qos: .userInteractive))
        source.setEventHandler { [weak self] in
            guard let self else { return }
            self.lock.lock()
            let handler = self.handler
            self.lock.unlock()
            handler?()
        }
        source.resume()
    }

    deinit {
        source.cancel()
    }

    /// Sets what Ctrl-C does while a command runs; nil ignores it.
    public func onInterrupt(_ handler: (@Sendable () -> Void)?) {
        lock.lock()
        self.handler = handler
        lock.unlock()
    }
}
