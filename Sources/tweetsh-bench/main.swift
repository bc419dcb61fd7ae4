import Foundation

#if TWEETSH_JEMALLOC
    import CJemalloc

    // The shipped allocator, so the figures are tweetsh's (see Sources/tweetsh/main.swift).
    _ = cjemalloc_version()
#endif

// Usage: tweetsh-bench <suite> [suite arguments] [--tsv]
let suites: [any BenchSuite.Type] = [
    StreamSuite.self, StoreSuite.self, ShellSuite.self, TweetKitSuite.self, ExploreSuite.self, HydrateSuite.self,
    StreamIngestSuite.self, PostgresSuite.self,
]

var arguments = Array(CommandLine.arguments.dropFirst())
let tsv = arguments.contains("--tsv")
arguments.removeAll { $0 == "--tsv" }

guard let name = arguments.first, let suite = suites.first(where: { $0.name == name }) else {
    let names = suites.map { $0.name }.joined(separator: "|")
    FileHandle.standardError.write(Data("usage: tweetsh-bench <\(names)> [--tsv]\n".utf8))
    exit(2)
}

do {
    for figure in try suite.run(arguments: Array(arguments.dropFirst())) {
        if tsv {
            print("\(figure.suite)\t\(figure.id)\t\(figure.value)\t\(figure.unit)")
        } else {
            let value = figure.value.formatted(.number.precision(.fractionLength(0...2)))
            print("\(figure.suite) \(figure.id): \(value) \(figure.unit)  \(figure.label)")
        }
        fflush(nil)
    }
} catch {
    FileHandle.standardError.write(Data("tweetsh-bench: \(error)\n".utf8))
    exit(1)
}
