import Foundation

/// What an import reads: a file (plain or compressed, found by its first bytes) or standard input.
public enum ImportInput: Hashable, Sendable {
    /// A file on disk.
    case file(URL)
    /// Standard input (`import -`), read to its end; it cannot be resumed.
    case standardInput

    /// The path, or `-` for standard input.
    public var path: String {
        switch self {
        case .file(let url): return url.standardizedFileURL.path
        case .standardInput: return "-"
        }
    }

    /// The collection an import of this input joins unless told otherwise: the file's name without the extensions of
    /// JSON and compression (`tweets.jsonl.gz` → `tweets`), or `stdin`.
    public var collectionName: String {
        guard case .file(let url) = self else { return "stdin" }
        var name = url.standardizedFileURL.lastPathComponent
        let extensions = [".zip", ".gz", ".bz2", ".xz", ".zst", ".zstd", ".jsonl", ".ndjson", ".json", ".js", ".txt"]
        while let suffix = extensions.first(where: { name.lowercased().hasSuffix($0) && name.count > $0.count }) {
            name.removeLast(suffix.count)
        }
        return name
    }

    /// What an input turned out to hold, from its first bytes.
    public enum Content: Hashable, Sendable {
        /// JSON text, maybe under one or more compressions (outermost first).
        case json(JSONFraming, compression: [Compression])
        /// A script file of an X account archive (`window.YTD.tweets.part0 = …`), for `importArchive`.
        case archiveScript
    }

    /// Looks at the input's first bytes (through any compression) and says what it holds; throws an
    /// `ImportInputError` reading `not JSON text: looks like …` for anything else.
    public func detect() throws -> Content {
        try open().content
    }

    /// The decoded bytes from the start, and what they are.
    package struct Opened {
        /// The decoded bytes, from the first.
        package var source: ByteSource
        /// What they hold.
        package var content: Content
    }

    /// Opens the input and looks through its compressions (the PostgreSQL store reads inputs this way too).
    package func open() throws -> Opened {
        var source: ByteSource =
            switch self {
            case .file(let url): try DescriptorSource(path: url.path)
            case .standardInput: DescriptorSource(standardInput: ())
            }
        var compression: [Compression] = []
        while true {
            let prefix = try source.readPrefix(InputDetector.prefixLength)
            let verdict = InputDetector.verdict(prefix, complete: prefix.count < InputDetector.prefixLength)
            let rest = PushbackSource(prefix, before: source)
            switch verdict {
            case .compressed(let kind) where compression.count < 3:
                compression.append(kind)
                source = try kind.decompressor(over: rest)
            case .compressed(let kind):
                throw ImportInputError(message: "not JSON text: looks like \(kind.rawValue) data nested too deep")
            case .json(let framing):
                return Opened(source: rest, content: .json(framing, compression: compression))
            case .archiveScript:
                return Opened(source: rest, content: .archiveScript)
            case .refused(let reason):
                let inside = compression.last.map { " (inside \($0.rawValue) data)" } ?? ""
                if prefix.isEmpty, let problem = source.problem { throw ImportInputError(message: problem) }
                throw ImportInputError(message: "not JSON text: \(reason)\(inside)")
            }
        }
    }
}
