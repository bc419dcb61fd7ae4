#if canImport(Glibc)
    import Glibc
#endif

/// The terminal in raw mode on the alternate screen, for the live screen, and the guarantee that it comes back.
///
/// Leaving restores the settings saved on entry. So do the process's exit (atexit), a fatal signal (SIGTERM, SIGHUP,
/// SIGQUIT) and a crash (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP: a Swift trap in the view model): the
/// handler restores the terminal, puts back the handler that was there before (the Swift backtracer, or the default)
/// and raises the signal again, so the process still dies the way it would have. SIGTSTP leaves raw mode before the
/// process stops and SIGCONT returns to it; SIGWINCH wakes the screen to redraw.
///
/// Handlers only call async-signal-safe functions (tcsetattr, write, sigaction, raise) on state prepared before they
/// are installed.
final class RawTerminal {
    /// Why the terminal could not be taken over.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let input: Int32
    private let output: Int32
    private var active = false

    /// Takes over the terminal on `input` (read in raw mode) and `output` (drawn on).
    init(input: Int32, output: Int32) {
        self.input = input
        self.output = output
    }

    /// Saves the settings, installs the handlers, switches to raw mode and the alternate screen. `wakeDescriptor`
    /// gets a byte on SIGWINCH and SIGCONT.
    func enter(wakeDescriptor: Int32) throws {
        guard !active else { return }
        let state = terminalGuard
        var saved = termios()
        guard isatty(input) == 1, isatty(output) == 1, tcgetattr(input, &saved) == 0 else {
            throw Failure(description: "live needs a terminal on standard input and output")
        }
        var raw = saved
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_oflag &= ~tcflag_t(OPOST)  // the screen writes \r\n itself
        raw.c_cflag |= tcflag_t(CS8)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        withUnsafeMutableBytes(of: &raw.c_cc) { bytes in
            bytes[Int(VMIN)] = 1
            bytes[Int(VTIME)] = 0
        }
        state.pointee.saved = saved
        state.pointee.raw = raw
        state.pointee.input = input
        state.pointee.output = output
        state.pointee.wake = wakeDescriptor
        if state.pointee.atExitRegistered == 0 {
            state.pointee.atExitRegistered = 1
            atexit(rawTerminalAtExit)
        }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = rawTerminalSignalHandler
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        for slot in 0..<guardedSignalCount {
            sigaction(guardedSignal(slot), &action, previousActions + slot)
        }
        guard tcsetattr(input, TCSANOW, &state.pointee.raw) == 0 else {
            restoreHandlers()
            throw Failure(description: "could not switch the terminal to raw mode (errno \(errno))")
        }
        state.pointee.engaged = 1
        _ = Glibc.write(output, enterSequence.pointer, enterSequence.count)
        active = true
    }

    /// Leaves the alternate screen and restores the saved settings and the previous signal handlers.
    func leave() {
        guard active else { return }
        active = false
        let state = terminalGuard
        state.pointee.engaged = 0
        _ = Glibc.write(output, leaveSequence.pointer, leaveSequence.count)
        _ = tcsetattr(input, TCSADRAIN, &state.pointee.saved)
        restoreHandlers()
        state.pointee.wake = -1
    }

    /// Writes everything in `text`, retrying after interruptions and partial writes. Nothing is written once a signal
    /// handler has given the terminal back: other threads run on until the signal ends the process, and a frame drawn
    /// then would land on the normal screen.
    func write(_ text: String) {
        guard active, terminalGuard.pointee.engaged != 0 else { return }
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(output, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
        bytes.removeAll()
    }

    /// The terminal's size now.
    func size() -> (columns: Int, rows: Int) {
        TerminalSize.kernelSize(fd: output) ?? (80, 24)
    }

    private func restoreHandlers() {
        for slot in 0..<guardedSignalCount {
            sigaction(guardedSignal(slot), previousActions + slot, nil)
        }
    }

}

// MARK: - State the signal handlers read

/// Everything a handler needs, in memory allocated before any handler is installed.
private struct TerminalGuardState {
    var input: Int32 = -1
    var output: Int32 = -1
    var wake: Int32 = -1
    /// 1 while raw mode is on and must be undone.
    var engaged: sig_atomic_t = 0
    var atExitRegistered = 0
    var saved = termios()
    var raw = termios()
}

nonisolated(unsafe) private let terminalGuard: UnsafeMutablePointer<TerminalGuardState> = {
    let pointer = UnsafeMutablePointer<TerminalGuardState>.allocate(capacity: 1)
    pointer.initialize(to: TerminalGuardState())
    return pointer
}()

private let guardedSignalCount = 12

/// The signals guarded, by slot; a switch rather than an array, so handlers touch no reference-counted storage.
private func guardedSignal(_ slot: Int) -> Int32 {
    switch slot {
    case 0: return SIGHUP
    case 1: return SIGTERM
    case 2: return SIGQUIT
    case 3: return SIGSEGV
    case 4: return SIGBUS
    case 5: return SIGILL
    case 6: return SIGFPE
    case 7: return SIGABRT
    case 8: return SIGTRAP
    case 9: return SIGTSTP
    case 10: return SIGCONT
    default: return SIGWINCH
    }
}

private func slot(of signal: Int32) -> Int {
    for slot in 0..<guardedSignalCount where guardedSignal(slot) == signal { return slot }
    return -1
}

nonisolated(unsafe) private let previousActions: UnsafeMutablePointer<sigaction> = {
    let pointer = UnsafeMutablePointer<sigaction>.allocate(capacity: guardedSignalCount)
    pointer.initialize(repeating: sigaction(), count: guardedSignalCount)
    return pointer
}()

/// Fixed byte strings, so handlers need not build any.
private struct StaticBytes: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<UInt8>
    let count: Int

    init(_ text: String) {
        let bytes = Array(text.utf8)
        count = bytes.count
        pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
        pointer.initialize(from: bytes, count: bytes.count)
    }
}

/// Alternate screen on, line wrap off (a line one column too wide must not scroll the screen), cleared.
private let enterSequence = StaticBytes("\u{1B}[?1049h\u{1B}[?7l\u{1B}[H\u{1B}[2J")
/// Line wrap back on, cursor shown, normal screen back.
private let leaveSequence = StaticBytes("\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l")
private let wakeByte = StaticBytes("w")

private func restoreTerminalNow() {
    let state = terminalGuard
    guard state.pointee.engaged != 0 else { return }
    state.pointee.engaged = 0
    _ = write(state.pointee.output, leaveSequence.pointer, leaveSequence.count)
    _ = tcsetattr(state.pointee.input, TCSANOW, &state.pointee.saved)
}

private func rawTerminalAtExit() {
    restoreTerminalNow()
}

private func rawTerminalSignalHandler(_ signal: Int32) {
    let state = terminalGuard
    let saved = errno
    defer { errno = saved }
    switch signal {
    case SIGWINCH:
        if state.pointee.wake >= 0 { _ = write(state.pointee.wake, wakeByte.pointer, 1) }
    case SIGCONT:
        // Back from a stop: raw mode and the alternate screen again, and a full redraw.
        guard state.pointee.input >= 0, state.pointee.wake >= 0, state.pointee.engaged == 0 else { return }
        _ = tcsetattr(state.pointee.input, TCSANOW, &state.pointee.raw)
        _ = write(state.pointee.output, enterSequence.pointer, enterSequence.count)
        state.pointee.engaged = 1
        _ = write(state.pointee.wake, wakeByte.pointer, 1)
    case SIGTSTP:
        // Stop with the terminal as the shell left it; the default action stops once this handler returns.
        restoreTerminalNow()
        var stop = sigaction()
        stop.__sigaction_handler.sa_handler = nil  // SIG_DFL
        sigemptyset(&stop.sa_mask)
        var mine = sigaction()
        sigaction(SIGTSTP, &stop, &mine)
        raise(SIGTSTP)
        // SIGTSTP is blocked while its handler runs: unblock it so the stop happens here, then take it back.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGTSTP)
        sigprocmask(SIG_UNBLOCK, &set, nil)
        sigaction(SIGTSTP, &mine, nil)
        // SIGCONT has normally re-entered raw mode by now. If the kernel discarded the stop (an orphaned process
        // group, with no shell to continue it), nothing did: do it here.
        if state.pointee.engaged == 0, state.pointee.wake >= 0, state.pointee.input >= 0 {
            _ = tcsetattr(state.pointee.input, TCSANOW, &state.pointee.raw)
            _ = write(state.pointee.output, enterSequence.pointer, enterSequence.count)
            state.pointee.engaged = 1
            _ = write(state.pointee.wake, wakeByte.pointer, 1)
        }
    default:
        // Fatal: restore, hand the signal to whoever had it before, and let it take its course.
        restoreTerminalNow()
        let index = slot(of: signal)
        if index >= 0 { sigaction(signal, previousActions + index, nil) }
        raise(signal)
    }
}
