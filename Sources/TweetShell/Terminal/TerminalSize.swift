#if canImport(Glibc)
    import Glibc
#endif

/// The terminal's size, asked of the kernel each time so a resize between commands is picked up.
public enum TerminalSize {
    /// Columns of the terminal on `fd`, else `$COLUMNS`, else 80.
    public static func columns(fd: Int32 = STDOUT_FILENO, environment: [String: String]) -> Int {
        if let size = kernelSize(fd: fd) { return size.columns }
        if let value = environment["COLUMNS"], let columns = Int(value), columns > 0 { return columns }
        return 80
    }

    /// Where compact rows are cut: `fixed` (`--width N`) when given, else the terminal's columns on `fd`, else
    /// `$COLUMNS`; nil when none applies (output to a pipe or file), so a script gets every row whole.
    public static func rowColumns(fd: Int32 = STDOUT_FILENO, fixed: Int?, environment: [String: String]) -> Int? {
        if let fixed { return fixed }
        if let size = kernelSize(fd: fd) { return size.columns }
        if let value = environment["COLUMNS"], let columns = Int(value), columns > 0 { return columns }
        return nil
    }

    /// The size the kernel reports for the terminal on `fd`, or nil when it is not a terminal or reports nothing.
    static func kernelSize(fd: Int32) -> (columns: Int, rows: Int)? {
        var size = winsize()
        guard isatty(fd) == 1, ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else {
            return nil
        }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// Whether `fd` is a terminal.
    public static func isTerminal(_ fd: Int32) -> Bool {
        isatty(fd) == 1
    }
}
