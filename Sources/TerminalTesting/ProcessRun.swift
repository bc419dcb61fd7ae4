import Foundation

/// A finished run of a program with pipes on stdin, stdout and stderr: how scripts and pipelines see tweetsh.
public struct ProcessRun: Sendable {
    /// The exit status.
    public let status: Int32
    /// Everything written to stdout.
    public let standardOutput: String
    /// Everything written to stderr.
    public let standardError: String

    /// Runs `executable` to completion, feeding `input` on stdin; kills it after `timeout` seconds.
    public static func run(
        _ executable: String, arguments: [String] = [], environment: [String: String],
        input: String = "", timeout: Double = 60
    ) throws -> ProcessRun {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let collector = OutputCollector()
        let group = DispatchGroup()
        for (pipe, isOut) in [(stdout, true), (stderr, false)] {
            group.enter()
            DispatchQueue.global().async {
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                collector.set(data, isOut: isOut)
                group.leave()
            }
        }
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try? stdin.fileHandleForWriting.close()
        if group.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            group.wait()
        }
        process.waitUntilExit()
        let (out, err) = collector.values
        return ProcessRun(
            status: process.terminationStatus, standardOutput: String(decoding: out, as: UTF8.self),
            standardError: String(decoding: err, as: UTF8.self))
    }
}

private final class OutputCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var out = Data()
    private var err = Data()

    func set(_ data: Data, isOut: Bool) {
        lock.withLock { if isOut { out = data } else { err = data } }
    }

    var values: (Data, Data) { lock.withLock { (out, err) } }
}
