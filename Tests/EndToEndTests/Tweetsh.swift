import Foundation
import TerminalTesting

/// How the tests start the real tweetsh binary: in a private HOME, with XDG folders inside it, no credentials and no
/// proxy settings from the machine, so every run starts from a fresh first-run state.
struct Tweetsh {
    let home = TemporaryDirectory(prefix: "tweetsh-e2e")

    static var executable: String { builtProductsDirectory() + "/tweetsh" }

    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = [
            "HOME": home.path,
            "XDG_CONFIG_HOME": home.file("config"),
            "XDG_DATA_HOME": home.file("data"),
            "XDG_STATE_HOME": home.file("state"),
            "PATH": "/usr/bin:/bin",
            "TERM": "xterm-256color",
            "NO_COLOR": "1",
            "LANG": "C.UTF-8",
        ]
        // A coverage run (scripts/coverage.sh) names where profiles go; the binary under test writes its own there.
        if let profile = ProcessInfo.processInfo.environment["LLVM_PROFILE_FILE"] {
            environment["LLVM_PROFILE_FILE"] = profile
        }
        for (key, value) in extra { environment[key] = value }
        return environment
    }

    var historyFile: String { home.file("state") + "/tweetsh/history" }
    var credentialsFile: String { home.file("config") + "/tweetsh/credentials" }

    /// Starts tweetsh on a pseudo-terminal.
    func terminal(_ arguments: [String] = [], environment extra: [String: String] = [:], columns: UInt16 = 100) throws
        -> PseudoTerminal
    {
        try PseudoTerminal(
            executable: Self.executable, arguments: arguments, environment: environment(extra), columns: columns,
            rows: 40)
    }

    /// Runs tweetsh with pipes.
    func run(_ arguments: [String], input: String = "", environment extra: [String: String] = [:]) throws -> ProcessRun
    {
        try ProcessRun.run(Self.executable, arguments: arguments, environment: environment(extra), input: input)
    }
}

/// The exit code inside a wait status.
func exitCode(_ status: Int32) -> Int32 { (status >> 8) & 0xFF }
