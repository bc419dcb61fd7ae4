import Foundation
import TweetStore

/// An import's progress on stderr: a bar by bytes, with lines, tweets and errors. Only on a terminal, and redrawn at
/// most ten times a second so a fast import is not slowed by drawing.
final class ProgressBar: @unchecked Sendable {
    private let enabled: Bool
    private let label: String
    private let lock = NSLock()
    private var lastDraw = Date.distantPast

    init(enabled: Bool, label: String) {
        self.enabled = enabled
        self.label = TerminalText.safe(label, lineBreak: " ")  // a file name may hold anything but `/`
    }

    func update(_ progress: ImportProgress) {
        guard enabled else { return }
        let now = Date()
        let shouldDraw = lock.withLock { () -> Bool in
            guard now.timeIntervalSince(lastDraw) >= 0.1 else { return false }
            lastDraw = now
            return true
        }
        guard shouldDraw else { return }
        let fraction = progress.totalBytes > 0 ? min(1, Double(progress.bytesRead) / Double(progress.totalBytes)) : 0
        let filled = Int(fraction * 24)
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: 24 - filled)
        let line =
            "\r\u{1B}[K\(label) \(bar) \(Int(fraction * 100))%  \(progress.tweets) tweets, \(progress.lines) lines, \(progress.errors) errors"
        FileHandle.standardError.write(Data(line.utf8))
    }

    func finish() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
