import Foundation

/// A spinner on stderr while a command runs, with an optional message such as a rate-limit countdown.
///
/// Only on a terminal: scripts and pipes never see it. It erases itself when stopped, so the results that follow
/// start on a clean line.
public final class Spinner: @unchecked Sendable {
    private let lock = NSLock()
    private var timer: DispatchSourceTimer?
    private var frame = 0
    private var message = ""
    private let enabled: Bool

    /// Whether it draws at all (stderr is a terminal).
    public var isEnabled: Bool { enabled }
    private let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    /// Creates a spinner; it draws nothing unless `enabled` (stderr is a terminal).
    public init(enabled: Bool) {
        self.enabled = enabled
    }

    /// Starts spinning with `message` beside it; a running spinner just takes the new message.
    public func start(_ message: String) {
        guard enabled else { return }
        lock.lock()
        defer { lock.unlock() }
        self.message = message
        guard timer == nil else { return }
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global(qos: .utility))
        timer.schedule(deadline: .now() + .milliseconds(120), repeating: .milliseconds(100))
        timer.setEventHandler { [weak self] in self?.draw() }
        self.timer = timer
        timer.resume()
    }

    /// Replaces the message (a countdown) without restarting.
    public func update(_ message: String) {
        guard enabled else { return }
        lock.lock()
        self.message = message
        lock.unlock()
    }

    /// Stops and erases the spinner line.
    public func stop() {
        guard enabled else { return }
        lock.lock()
        let running = timer
        timer = nil
        lock.unlock()
        guard let running else { return }
        running.cancel()
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }

    private func draw() {
        lock.lock()
        guard timer != nil else {
            lock.unlock()
            return
        }
        frame = (frame + 1) % frames.count
        // The message may quote the API (a wait's reason): one safe line, since `\r` redraws it in place.
        let line = "\r\u{1B}[K\(frames[frame]) \(TerminalText.safe(message, lineBreak: " "))"
        lock.unlock()
        FileHandle.standardError.write(Data(line.utf8))
    }
}
