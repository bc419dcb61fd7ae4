/// Where an import stands, passed to the progress callback after each batch is written.
public struct ImportProgress: Hashable, Sendable {
    /// Bytes of the file read so far (including any read by an earlier, interrupted run).
    public var bytesRead: UInt64
    /// The file's size.
    public var totalBytes: UInt64
    /// Lines read so far.
    public var lines: Int
    /// Tweets written so far.
    public var tweets: Int
    /// Lines that could not be decoded.
    public var errors: Int

    /// Creates a progress report.
    public init(bytesRead: UInt64, totalBytes: UInt64, lines: Int, tweets: Int, errors: Int) {
        self.bytesRead = bytesRead
        self.totalBytes = totalBytes
        self.lines = lines
        self.tweets = tweets
        self.errors = errors
    }
}

/// A line the importer could not use.
public struct ImportProblem: Hashable, Sendable, CustomStringConvertible {
    /// The 1-based line number in the file.
    public var line: Int
    /// What was wrong, as the decoder said it.
    public var message: String
    /// The start of the line, for recognizing it.
    public var excerpt: String

    /// Creates a problem report.
    public init(line: Int, message: String, excerpt: String) {
        self.line = line
        self.message = message
        self.excerpt = excerpt
    }

    /// `line 12: message`.
    public var description: String { "line \(line): \(message)" }
}

/// What an import did.
public struct ImportReport: Hashable, Sendable {
    /// Lines in the file (the last line number reached); for a JSON document (`framing == .values`), the values read.
    public var lines: Int
    /// Tweets written (searchable tweets; included ones are not counted), over all runs of this import.
    public var tweets: Int
    /// Lines that could not be decoded.
    public var errorCount: Int
    /// The first few of those, in full.
    public var problems: [ImportProblem]
    /// Lines the decoder skipped as carrying no tweets (such as pages without `data`).
    public var skippedLines: Int
    /// The line an interrupted earlier run had reached, when this run continued from there.
    public var resumedAfterLine: Int?
    /// How the JSON was laid out: one value per line, or a document (pretty-printed, arrays).
    public var framing: JSONFraming = .lines
    /// The compressions the data came under, outermost first (empty for plain text).
    public var compression: [Compression] = []
    /// Tweets read in this run (less than `tweets` when this run resumed an earlier one).
    public var tweetsThisRun = 0
    /// Tweets of this run the store did not hold as searchable results before.
    public var newTweets = 0
    /// Values that hold something other than tweets, by what they hold ("a page of users": 3). Users among them are
    /// still stored; the rest is skipped. They are not counted as errors.
    public var notTweets: [String: Int] = [:]
    /// Why the data ended before its end (a truncated or corrupt compressed file); what came before is imported.
    public var streamProblem: String?
    /// For an X account archive, which has no lines: the entries read, malformed ones included.
    public var entries: Int?
    /// What the user should know about the input as a whole, such as an archive without `account.js`.
    public var warnings: [String] = []

    /// Creates a report.
    public init(
        lines: Int, tweets: Int, errorCount: Int, problems: [ImportProblem], skippedLines: Int, resumedAfterLine: Int?
    ) {
        self.lines = lines
        self.tweets = tweets
        self.errorCount = errorCount
        self.problems = problems
        self.skippedLines = skippedLines
        self.resumedAfterLine = resumedAfterLine
    }
}
