import CLibEdit

/// The only caller of CLibEdit's signal shims: their state is `static` C data, one copy per calling Swift file, so
/// keeping every call in this file keeps one copy.
enum TerminalSignals {
    /// Runs `body` with the terminal settings of `fd` saved, and restored afterwards, at exit, or if a fatal signal
    /// (SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGABRT, a Swift trap...) ends the process meanwhile.
    static func guardingTerminal<Result>(_ fd: Int32, _ body: () throws -> Result) rethrows -> Result {
        let guarded = CLibEdit_guard_begin(fd) == 0
        defer { if guarded { CLibEdit_guard_end() } }
        return try body()
    }

    /// Runs `body` with every SIGWINCH resizing `editor`, then restores the application's SIGWINCH disposition.
    static func followingResizes<Result>(of editor: OpaquePointer, _ body: () throws -> Result) rethrows -> Result {
        _ = CLibEdit_resize_arm(editor)
        defer { CLibEdit_resize_disarm() }
        return try body()
    }

    /// Runs `body` with SIGINT recorded instead of ending the process, and reports whether it arrived.
    ///
    /// The application's own SIGINT disposition is put back afterwards, so a shell can cancel running commands with
    /// Ctrl-C outside the prompt.
    static func catchingInterrupt<Result>(_ body: () throws -> Result) rethrows -> (result: Result, interrupted: Bool) {
        _ = CLibEdit_interrupt_arm()
        defer { CLibEdit_interrupt_disarm() }
        let result = try body()
        return (result, CLibEdit_interrupt_take() != 0)
    }
}
