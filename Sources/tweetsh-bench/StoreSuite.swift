/// The `store` benchmark suite (placeholder until its issue lands).
enum StoreSuite: BenchSuite {
    static let name = "store"
    static func run(arguments: [String]) throws -> [Figure] { [] }
}
