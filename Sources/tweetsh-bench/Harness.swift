import Foundation

/// One measured figure: printed as a line of text, or as `suite<TAB>id<TAB>value<TAB>unit` with `--tsv`.
struct Figure {
    var suite: String
    var id: String
    var value: Double
    var unit: String
    /// What was measured, for the human-readable form.
    var label: String = ""
}

/// A named group of benchmarks, run by `tweetsh-bench <name>`.
protocol BenchSuite {
    /// The name given on the command line.
    static var name: String { get }
    /// Runs every workload and returns its figures; `arguments` are the words after the suite name.
    static func run(arguments: [String]) throws -> [Figure]
}

/// Timing helpers shared by the suites.
enum Measure {
    /// Runs `body` once to warm up, then `runs` times, and returns the median wall time in nanoseconds.
    /// `body` returns a checksum that is accumulated so the optimizer cannot drop the work.
    static func medianNanoseconds(runs: Int = 5, _ body: () throws -> Int) rethrows -> (median: Double, checksum: Int) {
        var checksum = try body()
        var samples: [Double] = []
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            checksum &+= try body()
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start))
        }
        samples.sort()
        return (samples[samples.count / 2], checksum)
    }

    /// Peak resident set size of this process in bytes (Linux `VmHWM`).
    static func peakRSSBytes() -> Int {
        residentKilobytes(field: "VmHWM:") * 1024
    }

    /// Current resident set size of this process, or of process `pid`, in bytes (Linux `VmRSS`).
    static func currentRSSBytes(of pid: Int32? = nil) -> Int {
        residentKilobytes(field: "VmRSS:", process: pid.map(String.init) ?? "self") * 1024
    }

    private static func residentKilobytes(field: String, process: String = "self") -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(process)/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix(field) {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
        }
        return 0
    }
}
