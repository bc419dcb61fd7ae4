/// The `shell` benchmark suite (placeholder until its issue lands).
enum ShellSuite: BenchSuite {
    static let name = "shell"
    static func run(arguments: [String]) throws -> [Figure] { [] }
}
