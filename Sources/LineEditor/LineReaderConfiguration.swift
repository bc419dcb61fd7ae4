import Glibc

/// How a line reader is set up. Everything has a default, so `LineReaderConfiguration()` gives a plain editor.
public struct LineReaderConfiguration {
    /// libedit's program name: `.editrc` lines prefixed `tweetsh:` apply only to this program.
    public var programName: String
    /// The history to recall from and record into; nil for none.
    public var history: History?
    /// Whether lines read at the terminal are added to `history` (blank, repeated and sensitive ones never are).
    /// A shell that expands `!!` before recording turns this off and calls `History.add` itself.
    public var recordsHistory: Bool
    /// Candidates for Tab; nil leaves Tab ringing the bell.
    public var completion: CompletionHandler?
    /// Whether `~/.editrc` (or `$EDITRC`) is read.
    public var readsEditrc: Bool
    /// Told when a line could not be written to the history file; the line itself is still returned.
    /// The default prints the error to standard error.
    public var historyWarning: (LineEditorError) -> Void

    /// A configuration; see each property for what it controls.
    public init(
        programName: String = "tweetsh",
        history: History? = nil,
        recordsHistory: Bool = true,
        completion: CompletionHandler? = nil,
        readsEditrc: Bool = true,
        historyWarning: ((LineEditorError) -> Void)? = nil
    ) {
        self.programName = programName
        self.history = history
        self.recordsHistory = recordsHistory
        self.completion = completion
        self.readsEditrc = readsEditrc
        self.historyWarning = historyWarning ?? { writeAll(STDERR_FILENO, "\($0)\n") }
    }
}

/// Chooses the reader for this process's standard input.
public enum LineReaders {
    /// A `LibEditLineReader` when standard input and output are both terminals, otherwise a `PipedLineReader` on
    /// standard input (so scripts and pipes get no prompts or escape codes).
    public static func standard(_ configuration: LineReaderConfiguration = LineReaderConfiguration()) throws
        -> any LineReader
    {
        if isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 {
            return try LibEditLineReader(configuration: configuration)
        }
        return PipedLineReader(fileDescriptor: STDIN_FILENO, history: configuration.history)
    }
}
