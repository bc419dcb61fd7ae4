import Glibc

/// A program running on a fresh pseudo-terminal, driven like a person at a keyboard.
///
/// The child is spawned with POSIX_SPAWN_SETSID and opens the terminal by name, which makes it the child's controlling
/// terminal: Ctrl-C then raises SIGINT in the child and resizes raise SIGWINCH, as in a real terminal window.
public final class PseudoTerminal {
    /// Why driving the terminal failed, with what the program had written.
    public struct Failure: Error, CustomStringConvertible {
        /// The explanation.
        public let description: String
    }

    /// The program's process id.
    public let pid: pid_t
    /// The terminal device, such as `/dev/pts/3`.
    public let terminalPath: String
    private let master: Int32
    /// Our own descriptor on the terminal, to read its settings even after the program has gone.
    private let observer: Int32
    /// Everything the program wrote.
    private var bytes: [UInt8] = []
    /// How far `waitFor` has consumed `bytes`.
    private var mark = 0
    private var exitStatus: Int32?

    // Linux ioctl numbers that Swift cannot import (they are function-like macros in <asm/ioctls.h>).
    private static let setPtyLock: UInt = 0x4004_5431  // TIOCSPTLCK
    private static let getPtyNumber: UInt = 0x8004_5430  // TIOCGPTN
    // glibc's POSIX_SPAWN_SETSID, declared only under _GNU_SOURCE.
    private static let spawnSetsid: Int16 = 0x80

    /// Starts `executable` on a new pseudo-terminal of the given size, as its controlling terminal.
    public init(
        executable: String, arguments: [String] = [], environment: [String: String], columns: UInt16 = 80,
        rows: UInt16 = 24
    ) throws {
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard master >= 0 else { throw Failure(description: "open /dev/ptmx: errno \(errno)") }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard ioctl(master, Self.setPtyLock, &unlock) == 0, ioctl(master, Self.getPtyNumber, &number) == 0 else {
            close(master)
            throw Failure(description: "cannot unlock the pseudo-terminal: errno \(errno)")
        }
        self.master = master
        terminalPath = "/dev/pts/\(number)"
        let observer = open(terminalPath, O_RDWR | O_NOCTTY | O_CLOEXEC)
        // Without it `localModes` would read as 0 and pass every "raw mode" check.
        guard observer >= 0 else {
            close(master)
            throw Failure(description: "open \(terminalPath): errno \(errno)")
        }
        self.observer = observer
        var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The test process may have handlers or an inherited mask; the child starts with defaults.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGQUIT, SIGHUP, SIGTSTP, SIGWINCH, SIGPIPE] { sigaddset(&defaults, signal) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        posix_spawnattr_setflags(&attributes, Self.spawnSetsid | Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, terminalPath, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var child: pid_t = 0
        let result = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard result == 0 else {
            close(observer)
            close(master)
            throw Failure(description: "posix_spawn \(executable): error \(result)")
        }
        pid = child
    }

    deinit {
        if exitStatus == nil {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        close(observer)
        close(master)
    }

    /// The terminal's current local-mode flags (ECHO, ICANON, ISIG...).
    public var localModes: tcflag_t {
        var settings = termios()
        tcgetattr(observer, &settings)
        return settings.c_lflag
    }

    /// Waits for `prompt`, then for the program to take the terminal out of canonical mode: a prompt is drawn just
    /// before that switch, and keys typed in between would be handled by the kernel's line discipline instead.
    public func waitForPrompt(_ prompt: String, timeout seconds: Double = 10) throws {
        try waitFor(prompt, timeout: seconds)
        let deadline = Self.now() + seconds
        while localModes & tcflag_t(ICANON) != 0 {
            if Self.now() > deadline {
                throw Failure(description: "terminal never left canonical mode after \(prompt.debugDescription)")
            }
            _ = pump(timeout: 0.005)
        }
    }

    /// Types `keys` (control characters included) into the terminal.
    public func type(_ keys: String) {
        var data = Array(keys.utf8)
        var offset = 0
        while offset < data.count {
            let written = data[offset...].withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
        data.removeAll()
    }

    /// Waits until the output after the previous match contains `text`, and moves past it.
    @discardableResult
    public func waitFor(_ text: String, timeout seconds: Double = 10) throws -> String {
        let deadline = Self.now() + seconds
        while true {
            if let end = Self.find(Array(text.utf8), in: bytes, from: mark) {
                let skipped = String(decoding: bytes[mark..<end], as: UTF8.self)
                mark = end
                return skipped
            }
            let remaining = deadline - Self.now()
            if remaining <= 0 || !pump(timeout: remaining) {
                throw Failure(
                    description: "timed out waiting for \(text.debugDescription); output after the last match: "
                        + String(decoding: bytes[mark...], as: UTF8.self).debugDescription)
            }
        }
    }

    /// Changes the terminal size; the kernel sends SIGWINCH to the program.
    public func resize(columns: UInt16, rows: UInt16) {
        var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
    }

    /// Waits for the program to end, collecting the rest of its output; returns its wait status.
    public func waitForExit(timeout seconds: Double = 10) throws -> Int32 {
        if let exitStatus { return exitStatus }
        let deadline = Self.now() + seconds
        while true {
            var status: Int32 = 0
            let done = waitpid(pid, &status, WNOHANG)
            if done == pid {
                while pump(timeout: 0.05) {}
                exitStatus = status
                return status
            }
            if Self.now() > deadline {
                throw Failure(description: "program did not exit; output: \(output.debugDescription)")
            }
            _ = pump(timeout: 0.05)
        }
    }

    /// Reads what is available within `timeout`; false when nothing came.
    private func pump(timeout: Double) -> Bool {
        var request = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        let ready = poll(&request, 1, Int32(max(0, timeout) * 1000))
        guard ready > 0 else { return false }
        var chunk = [UInt8](repeating: 0, count: 4096)
        let count = chunk.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
        guard count > 0 else {
            // EIO once the child has gone and no one holds the terminal open.
            usleep(10_000)
            return false
        }
        bytes.append(contentsOf: chunk[0..<count])
        return true
    }

    /// Everything the program wrote, decoded leniently.
    public var output: String { String(decoding: bytes, as: UTF8.self) }

    /// The index just past the first occurrence of `needle` at or after `start`.
    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty else { return start }
        guard haystack.count - start >= needle.count else { return nil }
        for offset in start...(haystack.count - needle.count)
        where haystack[offset] == needle[0] && haystack[offset..<offset + needle.count].elementsEqual(needle) {
            return offset + needle.count
        }
        return nil
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

/// The directory holding the test binary, where SwiftPM also puts the package's executables.
public func builtProductsDirectory() -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    let path = length > 0 ? String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
    guard let slash = path.lastIndex(of: "/") else { return "." }
    var directory = String(path[..<slash])
    // The xctest bundle on Linux is a plain executable, but step out of a bundle directory if there is one.
    if directory.hasSuffix(".xctest") { directory = String(directory[..<directory.lastIndex(of: "/")!]) }
    return directory
}
