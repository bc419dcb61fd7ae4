import Foundation

/// A program left running while the test does something else, so it can be killed at a chosen moment (the crash tests
/// send SIGKILL in the middle of an import) or run beside another one.
///
/// Output goes to files rather than pipes: a killed child leaves nothing unread behind, and nothing blocks on a full pipe.
public final class BackgroundProcess: @unchecked Sendable {
    private let process = Process()
    private let outputPath: String
    private let errorPath: String

    /// Starts `executable` with stdin from /dev/null and stdout/stderr collected in files under `directory`.
    public init(_ executable: String, arguments: [String], environment: [String: String], directory: String) throws {
        let stamp = UUID().uuidString.prefix(8)
        outputPath = directory + "/stdout-\(stamp)"
        errorPath = directory + "/stderr-\(stamp)"
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        process.standardOutput = FileHandle(forWritingAtPath: outputPath)
        process.standardError = FileHandle(forWritingAtPath: errorPath)
        try process.run()
    }

    /// The child's process id.
    public var pid: Int32 { process.processIdentifier }

    /// Whether the child has not exited yet.
    public var isRunning: Bool { process.isRunning }

    /// Sends `signal` (SIGKILL for a crash) to the child.
    public func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits for the child to end and returns its termination status (the signal number when it was killed);
    /// nil when it is still running after `timeout` seconds.
    @discardableResult
    public func waitForExit(timeout: Double = 600) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() > deadline { return nil }
            usleep(20_000)
        }
        return process.terminationStatus
    }

    /// The child's read position in the file at `path` (`pos` in /proc/PID/fdinfo for the descriptor open on it): how
    /// far an import has got through its input, whatever the machine's speed. Nil while the file is not open, and once
    /// the child has gone.
    public func position(inOpenFile path: String) -> Int? {
        let directory = "/proc/\(process.processIdentifier)/fd"
        guard let descriptors = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return nil }
        for descriptor in descriptors {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + descriptor),
                target == path,
                let info = readTextFile("/proc/\(process.processIdentifier)/fdinfo/\(descriptor)")
            else { continue }
            for line in info.split(separator: "\n") where line.hasPrefix("pos:") {
                return Int(line.dropFirst(4).trimmingCharacters(in: .whitespaces))
            }
        }
        return nil
    }

    /// True when the child ended because of a signal rather than by exiting.
    public var wasSignalled: Bool { !process.isRunning && process.terminationReason == .uncaughtSignal }

    /// What the child wrote to stdout so far.
    public var standardOutput: String { readTextFile(outputPath) ?? "" }

    /// What the child wrote to stderr so far.
    public var standardError: String { readTextFile(errorPath) ?? "" }
}
