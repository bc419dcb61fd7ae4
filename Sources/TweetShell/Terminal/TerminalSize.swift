#if canImport(Glibc)
import Glibc
#endif

/// The terminal's size, asked of the kernel each time so a resize between commands is picked up.
public enum TerminalSize {
    /// Columns of the terminal on `fd`, else `$COLUMNS`, else 80.
    public static func columns(fd: Int32 = STDOUT_FILENO, environment: [String: String]) -> Int {
        var size = winsize()
        if isatty(fd) == 1, ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            return Int(size.ws_col)
        }
        if let value = environment["COLUMNS"], let columns = Int(value), columns > 0 { return columns }
        return 80
    }

    /// Rows of the terminal on `fd`, else `$LINES`, else 24.
    public static func rows(fd: Int32 = STDOUT_FILENO, environment: [String: String]) -> Int {
        var size = winsize()
        if isatty(fd) == 1, ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 {
            return Int(size.ws_row)
        }
        if let value = environment["LINES"], let rows = Int(value), rows > 0 { return rows }
        return 24
    }

    /// Whether `fd` is a terminal.
    public static func isTerminal(_ fd: Int32) -> Bool {
        isatty(fd) == 1
    }
}
