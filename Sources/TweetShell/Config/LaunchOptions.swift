/// How tweetsh was started: `tweetsh [options] [-c "cmd; cmd"] [command words…]`.
public struct LaunchOptions: Equatable, Sendable {
    /// The text of each `-c`, in the order given: their commands run one after another, then tweetsh exits. A second
    /// `-c` adds to the first, as in psql, instead of silently replacing it.
    public var scripts: [String] = []
    /// A one-shot command from the remaining words (`tweetsh search swift --json`), as the user's shell split them:
    /// they are never re-split or re-quoted, so `tweetsh search '"open data"'` keeps its quotes and `'a;b'` its `;`.
    public var oneShot: [String]?
    /// `--color always|never|auto`.
    public var color: String?
    /// `--json`: print results as twarc2 JSON lines.
    public var json = false
    /// `--source x|local`.
    public var source: SourceKind?
    /// `--store PATH|ADDRESS`: the SQLite store to open (also an SQLite URI: `file:PATH?mode=ro` opens it read-only),
    /// or a PostgreSQL store (`postgresql://user@host/db`, or `postgres` for the `PG*` variables); see `StoreChoice`.
    public var storePath: String?
    /// `--config PATH`.
    public var configPath: String?
    /// `--width N`: cut compact rows at N columns, on a terminal or not (piped rows are otherwise whole).
    public var width: Int?
    /// `--help`.
    public var help = false
    /// `--version`.
    public var version = false

    /// The usage text for `--help` and usage errors.
    public static let usage = """
        usage: tweetsh [--color auto|always|never] [--source x|local] [--store PATH|postgresql://…] [--config PATH]
                       [--json] [--width N] [-c "command; command…" [-c …] | command words…]
               tweetsh store init postgresql://owner@host/db [--importer NAME] [--reader NAME]

          tweetsh                      interactive shell (reads commands from stdin when it is not a terminal)
          tweetsh -c "search swift; more; show 3"
          tweetsh search swift --json  one command, then exit
          tweetsh --store postgresql://me@lab/tweets   a shared PostgreSQL store (`postgres`: the PG* variables)
        Piped output: rows hold each tweet's whole text on one line; --width N (or COLUMNS) cuts them.
        Exit status: 0 ok, 1 a command failed, 2 usage error.
        """

    /// Creates default options.
    public init() {}

    /// Parses the arguments after the program name; a usage error says which argument was wrong.
    public static func parse(_ arguments: [String]) throws(CommandError) -> LaunchOptions {
        var options = LaunchOptions()
        var rest: [String] = []
        var index = 0
        func value(after flag: String) throws(CommandError) -> String {
            index += 1
            guard index < arguments.count else { throw CommandError("\(flag) needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            if !rest.isEmpty && argument != "--json" {
                rest.append(argument)  // everything after the command word belongs to the command
                index += 1
                continue
            }
            switch argument {
            case "-c":
                options.scripts.append(try value(after: "-c"))
            case "--color", "--colour":
                let choice = try value(after: argument).lowercased()
                guard ["auto", "always", "never"].contains(choice) else {
                    throw CommandError("--color takes auto, always or never, not '\(choice)'")
                }
                options.color = choice
            case "--json":
                options.json = true
            case "--source":
                let name = try value(after: argument)
                guard let kind = SourceKind(rawValue: name.lowercased()) else {
                    throw CommandError("--source takes x or local, not '\(name)'")
                }
                options.source = kind
            case "--store":
                options.storePath = try value(after: argument)
            case "--config":
                options.configPath = try value(after: argument)
            case "--width":
                let text = try value(after: argument)
                guard let columns = Int(text), (20...10_000).contains(columns) else {
                    throw CommandError("--width takes a number of columns from 20 to 10000, not '\(text)'")
                }
                options.width = columns
            case "-h", "--help":
                options.help = true
            case "--version":
                options.version = true
            default:
                if argument.hasPrefix("-") { throw CommandError("unknown option '\(argument)'") }
                rest.append(argument)
            }
            index += 1
        }
        if !rest.isEmpty {
            if !options.scripts.isEmpty { throw CommandError("give either -c or a command, not both") }
            options.oneShot = rest
        }
        return options
    }
}
