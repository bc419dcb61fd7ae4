import Foundation
import TerminalTesting
import TweetKit
import TweetShell
import TweetStore

/// The `shell` suite: what a person feels. Time from launch to the first prompt on a large store (median of 5 after
/// a warm-up, in a real pseudo-terminal), the shell's resident memory while it waits at that prompt, and the time to
/// render 10k results to a pipe.
///
/// `tweetsh-bench shell [--store PATH] [--tweets N]`: without `--store`, a store of N generated tweets (default
/// 1,000,000) is built once under /tmp and reused by later runs.
enum ShellSuite: BenchSuite {
    static let name = "shell"

    static func run(arguments: [String]) throws -> [Figure] {
        var storePath: String?
        var tweetCount = 1_000_000
        var index = 0
        while index < arguments.count {
            switch arguments[index] {
            case "--store":
                index += 1
                storePath = arguments[index]
            case "--tweets":
                index += 1
                tweetCount = Int(arguments[index]) ?? tweetCount
            default: break
            }
            index += 1
        }
        let path = try storePath ?? prepareStore(tweets: tweetCount)
        var figures: [Figure] = []
        let (promptMedian, rss) = try firstPrompt(storePath: path)
        figures.append(
            Figure(
                suite: name, id: "first-prompt", value: promptMedian / 1e6, unit: "ms",
                label: "launch to first prompt, median of 5, store \(path)"))
        figures.append(
            Figure(
                suite: name, id: "idle-rss", value: Double(rss) / 1_048_576, unit: "MB",
                label: "resident memory at the prompt"))
        let render = renderToPipe(count: 10_000)
        figures.append(
            Figure(
                suite: name, id: "render-10k", value: render.median / 1e6, unit: "ms",
                label: "10k compact rows rendered and written to a pipe (checksum \(render.checksum))"))
        return figures
    }

    /// Builds (once) a store of generated tweets for the start-up measurement.
    static func prepareStore(tweets: Int) throws -> String {
        let path = "/tmp/tweetsh-bench-shell-\(tweets).sqlite"
        if FileManager.default.fileExists(atPath: path) { return path }
        FileHandle.standardError.write(Data("building a \(tweets)-tweet store at \(path) (once)…\n".utf8))
        let semaphore = DispatchSemaphore(value: 0)
        let failure = FailureBox()
        Task {
            do {
                let store = try TweetStore(location: .file(path + ".partial"))
                var batch: [Page] = []
                for page in DemoCorpus(seed: 7, tweetCount: tweets) {
                    batch.append(page)
                    if batch.count == 50 {
                        try await store.insert(batch)
                        batch.removeAll()
                    }
                }
                try await store.insert(batch)
                try await store.optimize()
            } catch {
                failure.error = error
            }
            semaphore.signal()
        }
        semaphore.wait()
        if let error = failure.error { throw error }
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + ".partial" + suffix) {
            try FileManager.default.moveItem(atPath: path + ".partial" + suffix, toPath: path + suffix)
        }
        return path
    }

    /// Launches tweetsh on a pseudo-terminal until its prompt appears; returns the median time and the RSS at the prompt.
    static func firstPrompt(storePath: String) throws -> (median: Double, rss: Int) {
        let executable = builtProductsDirectory() + "/tweetsh"
        let home = TemporaryDirectory(prefix: "tweetsh-bench")
        let environment = [
            "HOME": home.path, "XDG_STATE_HOME": home.file("state"), "XDG_CONFIG_HOME": home.file("config"),
            "TERM": "xterm", "NO_COLOR": "1", "PATH": "/usr/bin:/bin",
        ]
        var rss = 0
        var samples: [Double] = []
        // One warm-up launch, then five measured ones. Only spawn-to-prompt is timed: quitting writes the history
        // entry (with fsync) and tears the process down, which the person at the prompt does not wait for.
        for run in 0..<6 {
            let start = DispatchTime.now().uptimeNanoseconds
            let terminal = try PseudoTerminal(
                executable: executable, arguments: ["--store", storePath], environment: environment)
            try terminal.waitForPrompt("> ", timeout: 30)
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start)
            if run > 0 { samples.append(elapsed) }
            rss = Measure.currentRSSBytes(of: terminal.pid)
            terminal.type("quit\r")
            _ = try terminal.waitForExit()
        }
        samples.sort()
        return (samples[samples.count / 2], rss)
    }

    /// 10k result rows through the compact renderer into a pipe that another thread drains.
    static func renderToPipe(count: Int) -> (median: Double, checksum: Int) {
        let corpus = DemoCorpus(seed: 11, tweetCount: count)
        var list = ResultList()
        for page in corpus { list.append(page) }
        let items = list.items
        let renderer = CompactRenderer(width: 120, style: Style(enabled: false))
        return Measure.medianNanoseconds {
            let pipe = Pipe()
            let reader = pipe.fileHandleForReading
            let drained = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                _ = reader.readDataToEndOfFile()
                drained.signal()
            }
            var bytes = 0
            var chunk = ""
            for line in renderer.lines(for: items) {
                chunk += line
                chunk += "\n"
                if chunk.utf8.count > 64 * 1024 {
                    bytes += chunk.utf8.count
                    pipe.fileHandleForWriting.write(Data(chunk.utf8))
                    chunk = ""
                }
            }
            bytes += chunk.utf8.count
            pipe.fileHandleForWriting.write(Data(chunk.utf8))
            try? pipe.fileHandleForWriting.close()
            drained.wait()
            return bytes
        }
    }
}

private final class FailureBox: @unchecked Sendable {
    var error: (any Error)?
}
