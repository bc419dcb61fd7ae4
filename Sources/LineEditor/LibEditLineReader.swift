import CLibEdit
import Glibc
import Synchronization

/// libedit keeps one global "current editor" for its signal handling, so a process may have one reader open.
private let readerIsOpen = Atomic<Bool>(false)

/// The terminal reader: libedit's wide-character editor on standard input and output.
///
/// Emacs key bindings, plus ^R for incremental history search (`HistorySearch`), ^W to delete the previous word and Tab for completion;
/// `~/.editrc` (or `$EDITRC`) is read after those, so users can rebind anything, including `tweetsh-complete`.
/// Ctrl-C discards the line (`.interrupted`), Ctrl-D on an empty line ends input, window resizes are followed, and the
/// terminal is restored on exit and on fatal signals.
public final class LibEditLineReader: LineReader {
    /// The history recalled with the arrow keys and ^R, and recorded into when `recordsHistory` is set.
    public let history: History?
    /// Always true: this reader only runs on a terminal.
    public var isInteractive: Bool { true }

    private let editor: OpaquePointer
    private let context: EditorContext
    private let recordsHistory: Bool
    private let historyWarning: (LineEditorError) -> Void
    /// The last history failure reported, so a read-only disk does not repeat the same warning after every line.
    private var lastHistoryFailure: LineEditorError?

    /// Opens libedit on the process's standard input and output.
    ///
    /// - Throws: `LineEditorError.editorUnavailable` when standard input is not a terminal or libedit fails to start,
    ///   `.readerAlreadyOpen` when another `LibEditLineReader` is alive.
    public init(configuration: LineReaderConfiguration) throws {
        guard isatty(STDIN_FILENO) == 1 else {
            throw LineEditorError.editorUnavailable("standard input is not a terminal")
        }
        guard readerIsOpen.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else {
            throw LineEditorError.readerAlreadyOpen
        }
        ensureUTF8Locale()
        guard let editor = CLibEdit_el_init_stdio(configuration.programName) else {
            readerIsOpen.store(false, ordering: .releasing)
            throw LineEditorError.editorUnavailable("el_init failed")
        }
        self.editor = editor
        self.history = configuration.history
        self.recordsHistory = configuration.recordsHistory
        self.historyWarning = configuration.historyWarning
        self.context = EditorContext(completion: configuration.completion, history: configuration.history)
        configure(readsEditrc: configuration.readsEditrc)
    }

    deinit {
        el_end(editor)
        readerIsOpen.store(false, ordering: .releasing)
    }

    /// Edits one line after `prompt`, records it in the history unless the history refuses it, and returns it.
    public func readLine(prompt: String) throws -> ReadResult {
        context.setPrompt(PromptText.marked(prompt))
        var count: Int32 = 0
        var failure: Int32 = 0
        context.beginLine()
        let (text, signalled) = TerminalSignals.guardingTerminal(STDIN_FILENO) {
            TerminalSignals.catchingInterrupt { () -> String? in
                TerminalSignals.followingResizes(of: editor) {
                    // libedit leaves errno alone at end of input, so clear it to tell that apart from a failed read.
                    errno = 0
                    let line = el_wgets(editor, &count)
                    failure = errno
                    return line.map { WideText.string($0, count: Int(count)) }
                }
            }
        }
        guard let text else {
            // The partial line stays on screen; move below it so the next prompt starts clean.
            fflush(nil)
            let interrupted = context.interruptKeyPressed || signalled || (count < 0 && failure == EINTR)
            writeAll(STDOUT_FILENO, interrupted ? "^C\n" : "\n")
            if interrupted { return .interrupted }
            if count == 0 || failure == 0 || failure == EIO { return .endOfInput }
            throw LineEditorError.input(operation: "el_wgets", errno: failure)
        }
        let line = text.hasSuffix("\n") ? String(text.dropLast()) : text
        if recordsHistory, let history {
            do {
                try history.add(line)
                lastHistoryFailure = nil
            } catch let error as LineEditorError {
                if error != lastHistoryFailure { historyWarning(error) }
                lastHistoryFailure = error
            }
        }
        return .line(line)
    }

    /// Reads a line with echo off; see `LineReader.readSecret(prompt:)`.
    public func readSecret(prompt: String) throws -> ReadResult {
        try SecretInput.read(prompt: prompt, input: STDIN_FILENO, output: STDOUT_FILENO)
    }

    private func configure(readsEditrc: Bool) {
        _ = CLibEdit_el_set_clientdata(editor, Unmanaged.passUnretained(context).toOpaque())
        _ = CLibEdit_el_set_prompt_esc(
            editor,
            { editor in
                guard let editor else { return nil }
                return EditorContext.from(editor)?.prompt
            }, wchar_t(PromptText.delimiter.value))
        _ = CLibEdit_el_set_editor(editor, "emacs")
        _ = CLibEdit_el_set_signal(editor, 1)
        // While editing, Ctrl-C and Ctrl-Z arrive as keys rather than signals. A SIGINT that lands between two of
        // libedit's reads cannot interrupt the next one and would be lost; a key cannot be.
        _ = CLibEdit_el_setty_edit(editor, "-isig")
        if let history {
            _ = CLibEdit_el_set_history(editor, history.handle)
        }
        _ = CLibEdit_el_addfn(
            editor, "tweetsh-complete", "Complete the word before the cursor",
            { editor, _ in
                guard let editor, let context = EditorContext.from(editor) else { return UInt8(CC_ERROR) }
                return context.complete(editor)
            })
        _ = CLibEdit_el_addfn(
            editor, "tweetsh-interrupt", "Discard the line (as SIGINT would)",
            { editor, _ in
                guard let editor, let context = EditorContext.from(editor) else { return UInt8(CC_ERROR) }
                context.interruptKeyPressed = true
                // Ends el_wgets with no line, like Ctrl-D; readLine tells the two apart by the flag.
                return UInt8(CC_EOF)
            })
        _ = CLibEdit_el_addfn(
            editor, "tweetsh-suspend", "Suspend the program (as SIGTSTP would)",
            { editor, _ in
                guard let editor, let context = EditorContext.from(editor) else { return UInt8(CC_ERROR) }
                return context.suspend()
            })
        _ = CLibEdit_el_addfn(
            editor, "tweetsh-history-search", "Search the history as you type",
            { editor, _ in
                guard let editor, let context = EditorContext.from(editor) else { return UInt8(CC_ERROR) }
                return context.searchHistory(editor)
            })
        _ = CLibEdit_el_bind(editor, "^C", "tweetsh-interrupt")
        _ = CLibEdit_el_bind(editor, "^Z", "tweetsh-suspend")
        _ = CLibEdit_el_bind(editor, "^I", "tweetsh-complete")
        _ = CLibEdit_el_bind(editor, "^R", "tweetsh-history-search")
        _ = CLibEdit_el_bind(editor, "^W", "ed-delete-prev-word")
        if readsEditrc {
            // Last, so the user's bindings win over ours; a missing file is not an error.
            _ = el_source(editor, nil)
        }
    }
}

/// State the C callbacks reach through EL_CLIENTDATA: the current prompt and the completion handler.
final class EditorContext {
    private(set) var prompt: UnsafeMutablePointer<wchar_t>
    private let completion: CompletionHandler?
    /// The history Ctrl-R searches.
    let history: History?
    /// Set by the Ctrl-C key binding during the current line.
    var interruptKeyPressed = false
    /// The terminal settings outside editing, captured as each line starts, for suspending.
    private var cookedSettings = termios()
    private var hasCookedSettings = false

    init(completion: CompletionHandler?, history: History?) {
        self.completion = completion
        self.history = history
        prompt = EditorContext.copy("")
    }

    deinit {
        prompt.deallocate()
    }

    static func from(_ editor: OpaquePointer) -> EditorContext? {
        guard let raw = CLibEdit_el_get_clientdata(editor) else { return nil }
        return Unmanaged<EditorContext>.fromOpaque(raw).takeUnretainedValue()
    }

    func beginLine() {
        interruptKeyPressed = false
        hasCookedSettings = tcgetattr(STDIN_FILENO, &cookedSettings) == 0
    }

    /// Ctrl-Z: give the terminal back in its normal mode, stop like SIGTSTP would, and resume editing on SIGCONT.
    func suspend() -> UInt8 {
        var editing = termios()
        let hasEditing = tcgetattr(STDIN_FILENO, &editing) == 0
        if hasCookedSettings { tcsetattr(STDIN_FILENO, TCSADRAIN, &cookedSettings) }
        // Returns once the job is continued (or at once if the program ignores SIGTSTP).
        kill(getpid(), SIGTSTP)
        if hasEditing { tcsetattr(STDIN_FILENO, TCSADRAIN, &editing) }
        return UInt8(CC_REDISPLAY)
    }

    func setPrompt(_ text: String) {
        let old = prompt
        prompt = EditorContext.copy(text)
        old.deallocate()
    }

    /// Tab: asks the handler for candidates and edits the line as `CompletionPlan` decides.
    func complete(_ editor: OpaquePointer) -> UInt8 {
        guard let completion else { return UInt8(CC_ERROR) }
        var cursor: Int32 = 0
        var length: Int32 = 0
        guard let buffer = CLibEdit_el_line(editor, &cursor, &length) else { return UInt8(CC_ERROR) }
        let request = CompletionRequest(line: WideText.string(buffer, count: Int(length)), cursorOffset: Int(cursor))
        let wordLength = Int32(request.word.unicodeScalars.count)
        switch CompletionPlan(request: request, candidates: completion(request)) {
        case .none:
            return UInt8(CC_REFRESH_BEEP)
        case .replaceWord(let text):
            replaceWord(editor, length: wordLength, with: text)
            return UInt8(CC_REFRESH)
        case .list(let replacement, let candidates):
            if let replacement { replaceWord(editor, length: wordLength, with: replacement) }
            let rows = CompletionLayout.rows(candidates, width: Int(CLibEdit_el_columns(editor)))
            _ = CLibEdit_el_write(editor, "\n" + rows.joined(separator: "\n") + "\n")
            return UInt8(CC_REDISPLAY)
        }
    }

    private func replaceWord(_ editor: OpaquePointer, length: Int32, with text: String) {
        if length > 0 { el_deletestr(editor, length) }
        if !text.isEmpty { _ = WideText.withCharacters(text) { el_winsertstr(editor, $0) } }
    }

    private static func copy(_ text: String) -> UnsafeMutablePointer<wchar_t> {
        let characters = WideText.characters(text)
        let pointer = UnsafeMutablePointer<wchar_t>.allocate(capacity: characters.count)
        pointer.initialize(from: characters, count: characters.count)
        return pointer
    }
}
