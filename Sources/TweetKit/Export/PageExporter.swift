import Foundation

/// The file formats tweets can be exported to.
public enum ExportFormat: String, Hashable, Sendable, CaseIterable {
    /// twarc2's JSONL: one API response page per line with `data`, `includes` and `meta`.
    case twarc2JSONL = "jsonl"
    /// `twarc2 flatten`'s JSONL: one tweet per line with `author`, `in_reply_to_user`, media and references merged in.
    case flattenedJSONL = "flat"
    /// twarc-csv's CSV: one tweet per row under its dotted column names (twarc-csv 0.7's defaults, or a choice).
    case csv
}

/// The `__twarc` provenance object twarc2 adds to each line, which twarc-csv turns into `__twarc.*` columns.
public struct TwarcMetadata: Hashable, Sendable {
    /// The request URL the page came from (or a description of the local source).
    public var url: String
    /// The writing tool and version.
    public var version: String
    /// When the data was fetched.
    public var retrievedAt: Date

    /// Creates provenance metadata.
    public init(url: String, version: String = "tweetsh", retrievedAt: Date) {
        self.url = url
        self.version = version
        self.retrievedAt = retrievedAt
    }
}

/// Turns pages into the bytes of an export format. Holds the little state a format needs (whether the CSV header
/// was written), so one exporter serves one output.
public struct PageExporter: Sendable {
    /// The output format.
    public let format: ExportFormat
    /// Provenance written as `__twarc` on JSONL lines and in the CSV's `__twarc.*` columns; nil writes none.
    public var metadata: TwarcMetadata?
    /// The CSV's columns; the other formats ignore it.
    public let columns: TwarcCSVColumns
    private var wroteHeader = false

    /// Creates an exporter for one output.
    public init(format: ExportFormat, metadata: TwarcMetadata? = nil, columns: TwarcCSVColumns = .twarcDefaults) {
        self.format = format
        self.metadata = metadata
        self.columns = columns
    }

    /// Appends `page` in this format to `output`: one line for twarc2 JSONL, one line per tweet for the others,
    /// preceded by the header row for the first CSV page.
    public mutating func encode(_ page: Page, into output: inout JSONWriter) {
        switch format {
        case .twarc2JSONL:
            TwarcEncoding.writePageLine(page, metadata: metadata, into: &output)
        case .flattenedJSONL:
            TwarcEncoding.writeFlattenedLines(page, metadata: metadata, into: &output)
        case .csv:
            if !wroteHeader {
                TwarcCSV.writeHeader(columns, into: &output)
                wroteHeader = true
            }
            TwarcCSV.writeRows(of: page, metadata: metadata, columns: columns, into: &output)
        }
    }

    /// `page` in this format as text.
    public mutating func encode(_ page: Page) -> String {
        var writer = JSONWriter(capacity: 1024 * max(1, page.tweets.count))
        encode(page, into: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// Writes `page` in this format to a text stream (standard output in the shell, a String in tests).
    public mutating func write(_ page: Page, to stream: inout some TextOutputStream) {
        stream.write(encode(page))
    }

    /// Text to write when nothing was exported, so an empty CSV still names its columns.
    public mutating func finishingText() -> String {
        guard format == .csv, !wroteHeader else { return "" }
        wroteHeader = true
        var writer = JSONWriter(capacity: 2048)
        TwarcCSV.writeHeader(columns, into: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}

/// Streams an export to a file, buffering writes so a million-tweet export makes few system calls.
public final class ExportFileWriter {
    private var exporter: PageExporter
    private let handle: FileHandle
    private var buffer = JSONWriter(capacity: 1 << 20)
    /// Tweets written so far.
    public private(set) var tweetsWritten = 0

    /// Writes `format` (with `columns` for CSV) to `handle`, which the caller opened and closes.
    public init(
        handle: FileHandle, format: ExportFormat, metadata: TwarcMetadata? = nil,
        columns: TwarcCSVColumns = .twarcDefaults
    ) {
        self.handle = handle
        self.exporter = PageExporter(format: format, metadata: metadata, columns: columns)
    }

    /// Appends a page; flushes when the buffer passes 1 MB.
    public func write(_ page: Page) throws {
        exporter.encode(page, into: &buffer)
        tweetsWritten += page.tweets.count
        if buffer.count >= 1 << 20 { try flush() }
    }

    /// Writes out everything buffered (and the CSV header if no page came); call before closing the handle.
    public func finish() throws {
        let trailer = exporter.finishingText()
        buffer.append(trailer)
        try flush()
    }

    private func flush() throws {
        guard buffer.count > 0 else { return }
        try handle.write(contentsOf: buffer.data)
        buffer.removeAll()
    }
}

extension TwarcMetadata {
    /// The `__twarc` block as JSON, as it is kept with a fetched page's originals.
    public var original: OriginalJSON {
        var writer = JSONWriter(capacity: 256)
        writer.raw("{")
        TwarcEncoding.twarcObject(self, into: &writer)
        writer.raw("}")
        // The block is the value of the one member just written: `{"__twarc":{…}}` minus the wrapper.
        let bytes = writer.bytes
        return OriginalJSON(bytes: Array(bytes[#"{"__twarc":"#.utf8.count..<(bytes.count - 1)]))
    }
}
