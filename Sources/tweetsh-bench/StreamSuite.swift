/// The `stream` benchmark suite (placeholder until its issue lands).
enum StreamSuite: BenchSuite {
    static let name = "stream"
    static func run(arguments: [String]) throws -> [Figure] { [] }
}
