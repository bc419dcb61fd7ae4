import Foundation
import TweetKit
import TweetStore

#if canImport(Glibc)
    import Glibc
#endif

/// What one `import` reads, from the paths typed: files, X archives, standard input, in order, each once.
struct ImportTargets {
    /// One thing to import.
    enum Target: Hashable {
        /// A file of JSON (plain or compressed; its first bytes decide).
        case file(String)
        /// An X account archive: its folder, its `data` folder, or a tweets file.
        case archive(String)
        /// Standard input (`-`).
        case standardInput

        var label: String {
            switch self {
            case .file(let path), .archive(let path): return path
            case .standardInput: return "standard input"
            }
        }
    }

    private(set) var targets: [Target] = []
    /// Paths that named nothing, with the reason.
    private(set) var missing: [String] = []

    /// Expands `~`, globs (`*`, `?`, `[…]`, which tweetsh expands itself) and folders (every file inside, hidden
    /// ones left out, sorted by path; an archive folder stays one archive).
    init(_ rawPaths: [String], environment: [String: String]) {
        var seen = Set<Target>()
        func add(_ target: Target) {
            if seen.insert(target).inserted { targets.append(target) }
        }
        for raw in rawPaths {
            if raw == "-" {
                add(.standardInput)
                continue
            }
            guard !raw.isEmpty else {
                missing.append("a file name is empty; give a file's or folder's name, or - for standard input")
                continue
            }
            let path = ShellSession.expandTilde(raw, environment: environment)
            var paths = [path]
            if !FileManager.default.fileExists(atPath: path) {
                if ["https://", "http://"].contains(where: { raw.lowercased().hasPrefix($0) }) {
                    // A link copied from a browser or a data repository: say what to do instead of "no such file".
                    missing.append(
                        "\(raw) is a web address; import reads files, so download it first (curl -LO '\(raw)') and "
                            + "import the file")
                    continue
                }
                guard path.contains(where: { "*?[".contains($0) }) else {
                    missing.append("no such file or folder: \(path)")
                    continue
                }
                paths = Self.glob(path)
                if paths.isEmpty {
                    missing.append("no file matches \(path)")
                    continue
                }
            }
            for path in paths { Self.expand(path, into: add) }
        }
    }

    private static func expand(_ path: String, into add: (Target) -> Void) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return }
        guard isDirectory.boolValue else {
            add(path.hasSuffix(".js") ? .archive(path) : .file(path))
            return
        }
        if (try? ArchiveReader(url: URL(fileURLWithPath: path))) != nil {
            add(.archive(path))
            return
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        for name in names.sorted() where !name.hasPrefix(".") {
            expand((path as NSString).appendingPathComponent(name), into: add)
        }
    }

    /// The paths `pattern` matches, sorted, as glob(3) finds them.
    static func glob(_ pattern: String) -> [String] {
        var result = glob_t()
        defer { globfree(&result) }
        guard Glibc.glob(pattern, 0, nil, &result) == 0 else { return [] }
        return (0..<Int(result.gl_pathc)).compactMap { index in
            result.gl_pathv[index].map { String(cString: $0) }
        }
    }
}
