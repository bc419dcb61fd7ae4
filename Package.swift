// swift-tools-version:6.0
import PackageDescription

/// jemalloc is the executables' allocator (docs/architecture.md, "Memory"), except when `TWEETSH_SYSTEM_MALLOC=1`:
/// scripts/sanitizers.sh sets it, because the sanitizers bring their own allocator and the test bundle links the
/// executables' modules, jemalloc with them.
let usesJemalloc = Context.environment["TWEETSH_SYSTEM_MALLOC"] != "1"
let allocator: [Target.Dependency] = usesJemalloc ? ["CJemalloc"] : []
let allocatorSettings: [SwiftSetting] = usesJemalloc ? [.define("TWEETSH_JEMALLOC")] : []

let package = Package(
    name: "tweetsh",
    products: [
        .executable(name: "tweetsh", targets: ["tweetsh"]),
        .executable(name: "tweetsh-bench", targets: ["tweetsh-bench"]),
        .library(name: "StreamCore", targets: ["StreamCore"]),
        .library(name: "StreamFoundation", targets: ["StreamFoundation"]),
        .library(name: "StreamTesting", targets: ["StreamTesting"]),
        .library(name: "LineEditor", targets: ["LineEditor"]),
        .library(name: "TweetKit", targets: ["TweetKit"]),
        .library(name: "TweetStore", targets: ["TweetStore"]),
        .library(name: "PostgresStore", targets: ["PostgresStore"]),
        .library(name: "XAPI", targets: ["XAPI"]),
    ],
    targets: [
        // Stream core: Combine's API without Foundation or Dispatch.
        .target(name: "StreamCore"),
        .target(name: "StreamFoundation", dependencies: ["StreamCore"]),
        .target(name: "StreamTesting", dependencies: ["StreamCore"]),

        // Line editing over Debian's libedit.
        .systemLibrary(
            name: "CLibEdit",
            pkgConfig: "libedit",
            providers: [.apt(["libedit-dev"])]
        ),
        .target(name: "LineEditor", dependencies: ["CLibEdit"]),
        // A small REPL over LineEditor; the pseudo-terminal end-to-end test drives it.
        .executableTarget(name: "lineeditor-demo", dependencies: ["LineEditor"]),

        // Tweets: models, formats, the SQLite store and the X API client.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // Compression, for imports of compressed files and for the store's originals: Debian's libzstd, zlib,
        // liblzma and libbz2 (libbz2 ships no pkg-config file, so its module map links it by name).
        .systemLibrary(name: "CZstd", pkgConfig: "libzstd", providers: [.apt(["libzstd-dev"])]),
        // The executables' allocator (docs/architecture.md, "Memory"): imports free and allocate millions of small
        // objects, for which jemalloc took about 15% less CPU than Glibc's malloc (docs/benchmarks.md).
        .systemLibrary(name: "CJemalloc", pkgConfig: "jemalloc", providers: [.apt(["libjemalloc-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CLZMA", pkgConfig: "liblzma", providers: [.apt(["liblzma-dev"])]),
        .systemLibrary(name: "CBZip2", providers: [.apt(["libbz2-dev"])]),
        .target(name: "TweetKit"),
        .target(name: "TweetStore", dependencies: ["TweetKit", "CSQLite", "CZstd", "CZlib", "CLZMA", "CBZip2"]),
        // The shared PostgreSQL store over Debian's libpq (pkg-config `libpq`): the same protocols as TweetStore,
        // reusing its index documents, record encoding and originals codec (declared `package` there).
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .target(name: "PostgresStore", dependencies: ["TweetKit", "TweetStore", "CLibPQ"]),
        // An importer as its own process, which the resume test kills with SIGKILL.
        .executableTarget(name: "postgres-import-probe", dependencies: ["PostgresStore", "TweetKit"]),
        .target(name: "XAPI", dependencies: ["TweetKit"]),
        // A loopback HTTP server speaking the X API v2 contract, shared by the XAPI and end-to-end tests.
        .target(name: "XAPIStub", dependencies: ["TweetKit"]),
        // The stub as a program (`xapi-stub --port 0 --fault 429@2`), for end-to-end tests of the tweetsh binary.
        .executableTarget(name: "xapi-stub", dependencies: ["XAPIStub", "TweetKit"]),

        // Test utilities shared by test targets: a pseudo-terminal driver, temporary folders, piped runs.
        .target(name: "TerminalTesting"),
        // A throwaway PostgreSQL cluster per test process (or the server TWEETSH_TEST_PG_URL names).
        .target(name: "PostgresTesting", dependencies: ["PostgresStore"]),
        // The lossless collection and its object-by-object comparison, shared by both stores' round-trip tests.
        .target(name: "StoreTesting", dependencies: ["TweetKit"]),

        // The shell.
        .target(
            name: "TweetShell",
            dependencies: [
                "StreamCore", "StreamFoundation", "LineEditor", "TweetKit", "TweetStore", "PostgresStore", "XAPI",
            ]
        ),
        .executableTarget(name: "tweetsh", dependencies: ["TweetShell"] + allocator, swiftSettings: allocatorSettings),
        .executableTarget(
            name: "tweetsh-bench",
            dependencies: [
                "StreamCore", "StreamFoundation", "TweetKit", "TweetStore", "TweetShell", "TerminalTesting", "XAPI",
                "XAPIStub", "PostgresStore", "PostgresTesting",
            ] + allocator,
            swiftSettings: allocatorSettings
        ),

        .testTarget(name: "StreamCoreTests", dependencies: ["StreamCore", "StreamTesting", "StreamFoundation"]),
        // The thread-safety stress tests, a target of their own so that ThreadSanitizer's pass builds them without the
        // rest of StreamCore's suite (scripts/sanitizers.sh).
        .testTarget(name: "StreamCoreConcurrencyTests", dependencies: ["StreamCore", "StreamTesting"]),
        .testTarget(name: "StreamFoundationTests", dependencies: ["StreamFoundation", "StreamTesting"]),
        .testTarget(name: "StreamTestingTests", dependencies: ["StreamTesting"]),
        // The pseudo-terminal tests spawn lineeditor-demo, so it is built with them.
        .testTarget(name: "LineEditorTests", dependencies: ["LineEditor", "TerminalTesting", "lineeditor-demo"]),
        .testTarget(name: "TweetKitTests", dependencies: ["TweetKit"]),
        .testTarget(
            name: "TweetStoreTests",
            dependencies: ["TweetStore", "StoreTesting", "TerminalTesting", "CZstd", "CZlib", "CLZMA", "CBZip2"]),
        .testTarget(
            name: "PostgresStoreTests",
            dependencies: [
                "PostgresStore", "PostgresTesting", "StoreTesting", "TweetStore", "TweetKit", "TerminalTesting",
                "postgres-import-probe", "tweetsh", "XAPIStub",
            ]),
        .testTarget(name: "XAPITests", dependencies: ["XAPI", "XAPIStub"]),
        .testTarget(
            name: "TweetShellTests", dependencies: ["TweetShell", "StreamTesting", "XAPIStub"], exclude: ["Snapshots"]),
        // hydrate, dehydrate and rules over the real store, the real client and the loopback stub.
        .testTarget(
            name: "CollectTests",
            dependencies: ["TweetShell", "TweetStore", "TweetKit", "XAPI", "XAPIStub", "TerminalTesting"]
        ),
        .testTarget(name: "EndToEndTests", dependencies: ["XAPIStub", "TweetKit", "LineEditor", "TerminalTesting"]),
    ]
)

// One place for the settings every target shares: Swift 6 mode with complete concurrency checking.
let sharedSwiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6)
]
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + sharedSwiftSettings
}

/// `TWEETSH_TEST_TARGETS=A,B` keeps only those test targets and what they depend on, and drops every product that
/// needs something else. scripts/sanitizers.sh sets it: each sanitizer pass runs a few test targets, and building the
/// rest of the package under a sanitizer cost CI minutes for tests it never ran (docs/reliability.md, "What CI runs").
if let kept = Context.environment["TWEETSH_TEST_TARGETS"], !kept.isEmpty {
    let byName = Dictionary(uniqueKeysWithValues: package.targets.map { ($0.name, $0) })
    var needed = Set<String>()
    var pending = kept.split(separator: ",").map(String.init)
    while let name = pending.popLast() {
        guard needed.insert(name).inserted, let target = byName[name] else { continue }
        for dependency in target.dependencies {
            switch dependency {
            case .targetItem(let name, _), .byNameItem(let name, _): pending.append(name)
            case .productItem: break
            @unknown default: break
            }
        }
    }
    package.targets = package.targets.filter { needed.contains($0.name) }
    package.products = package.products.filter { product in
        let targets = (product as? Product.Executable)?.targets ?? (product as? Product.Library)?.targets ?? []
        return targets.allSatisfy(needed.contains)
    }
}
