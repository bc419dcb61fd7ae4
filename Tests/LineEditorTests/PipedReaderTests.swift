import Foundation
import Glibc
import Synchronization
import TerminalTesting
import Testing

@testable import LineEditor

@Suite("Piped reader")
struct PipedReaderTests {
    /// A pipe whose write end the test feeds.
    ///
    /// Each end is closed once. Tests run in parallel, so a second close of a number another test has meanwhile been
    /// given closes that test's descriptor: this once cut `lineeditor-demo`'s input and killed the run with SIGPIPE.
    final class Pipe {
        let readEnd: Int32
        let writeEnd: Int32
        private var writerOpen = true

        init() {
            var ends: [Int32] = [0, 0]
            precondition(pipe(&ends) == 0)
            readEnd = ends[0]
            writeEnd = ends[1]
            // Not inherited by programs other tests start meanwhile, which would keep the pipe open past closeWriter.
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        }

        func write(_ text: String) {
            let bytes = Array(text.utf8)
            _ = bytes.withUnsafeBytes { Glibc.write(writeEnd, $0.baseAddress, $0.count) }
        }

        func closeWriter() {
            if writerOpen { close(writeEnd) }
            writerOpen = false
        }

        deinit {
            close(readEnd)
            closeWriter()
        }
    }

    @Test("lines come back without terminators, and a last line without a newline is still returned")
    func lines() throws {
        let pipe = Pipe()
        pipe.write("search x\r\nshow 1\n\nlast without newline")
        pipe.closeWriter()
        let reader = PipedLineReader(fileDescriptor: pipe.readEnd)
        #expect(try reader.readLine(prompt: "> ") == .line("search x"))
        #expect(try reader.readLine(prompt: "> ") == .line("show 1"))
        #expect(try reader.readLine(prompt: "> ") == .line(""))
        #expect(try reader.readLine(prompt: "> ") == .line("last without newline"))
        #expect(try reader.readLine(prompt: "> ") == .endOfInput)
        #expect(try reader.readLine(prompt: "> ") == .endOfInput)
    }

    @Test("invalid UTF-8 becomes replacement characters instead of failing")
    func invalidUTF8() throws {
        let pipe = Pipe()
        let bytes: [UInt8] = [0x61, 0xFF, 0x62, 0x0A, 0xC3]
        _ = bytes.withUnsafeBytes { write(pipe.writeEnd, $0.baseAddress, $0.count) }
        pipe.closeWriter()
        let reader = PipedLineReader(fileDescriptor: pipe.readEnd)
        #expect(try reader.readLine(prompt: "") == .line("a\u{FFFD}b"))
        #expect(try reader.readLine(prompt: "") == .line("\u{FFFD}"))
        #expect(try reader.readLine(prompt: "") == .endOfInput)
    }

    @Test("secrets read from a pipe are plain lines")
    func secret() throws {
        let pipe = Pipe()
        pipe.write("token\n")
        pipe.closeWriter()
        #expect(try PipedLineReader(fileDescriptor: pipe.readEnd).readSecret(prompt: "token: ") == .line("token"))
    }

    @Test("a read interrupted by a signal is retried")
    func retriesEINTR() throws {
        let pipe = Pipe()
        // A handler without SA_RESTART, so the blocked read really fails with EINTR.
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in signalsSeen.add(1, ordering: .relaxed) }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        var previous = sigaction()
        sigaction(SIGUSR1, &action, &previous)
        defer { sigaction(SIGUSR1, &previous, nil) }

        let result = Mutex<ReadResult?>(nil)
        let readerThread = Mutex<pthread_t?>(nil)
        let finished = DispatchSemaphore(value: 0)
        let readEnd = pipe.readEnd
        let thread = Thread {
            // Threads may start with signals blocked; this one must receive SIGUSR1 while blocked in read.
            var unblock = sigset_t()
            sigemptyset(&unblock)
            sigaddset(&unblock, SIGUSR1)
            pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
            readerThread.withLock { $0 = pthread_self() }
            let line = try? PipedLineReader(fileDescriptor: readEnd).readLine(prompt: "")
            result.withLock { $0 = line }
            finished.signal()
        }
        thread.start()
        let before = signalsSeen.load(ordering: .relaxed)
        var target: pthread_t?
        while target == nil {
            usleep(1000)
            target = readerThread.withLock { $0 }
        }
        for sent in 1...5 {
            pthread_kill(target!, SIGUSR1)
            // Wait for each signal to be handled before the next: two pending SIGUSR1s would merge into one on a
            // loaded machine, and the count below would be short.
            for _ in 0..<10_000 where signalsSeen.load(ordering: .relaxed) - before < sent { usleep(1000) }
        }
        usleep(20_000)
        pipe.write("after signals\n")
        #expect(finished.wait(timeout: .now() + 10) == .success)
        #expect(result.withLock { $0 } == .line("after signals"))
        #expect(signalsSeen.load(ordering: .relaxed) - before == 5)
    }

    @Test("the demo writes no prompt or escape codes when its input is a pipe")
    func demoPiped() throws {
        let directory = TemporaryDirectory()
        let run = try ProcessRun.run(
            builtProductsDirectory() + "/lineeditor-demo",
            environment: ["HOME": directory.path, "XDG_STATE_HOME": directory.file("state"), "TERM": "xterm"],
            input: "search x\ncafé\nno newline")
        #expect(run.status == 0)
        #expect(run.standardOutput == "got: [search x]\ngot: [café]\ngot: [no newline]\nend of input\n")
        // Piped input is a script, not something typed: it is not recorded.
        #expect(permissions(of: directory.file("state/tweetsh/history")) == nil)
    }
}

private let signalsSeen = Atomic<Int>(0)

@Suite("Line splitting and secret editing")
struct LineBufferTests {
    @Test("lines split across chunks are joined")
    func chunks() {
        var buffer = LineBuffer()
        buffer.append(Array("sea".utf8))
        #expect(buffer.nextLine() == nil)
        buffer.append(Array("rch\nca".utf8))
        #expect(buffer.nextLine() == "search")
        buffer.append([0xC3])
        #expect(buffer.nextLine() == nil)
        buffer.append([0xA9, 0x0A])
        #expect(buffer.nextLine() == "caé")
        #expect(buffer.finish() == nil)
    }

    @Test("a long stream keeps working as consumed bytes are dropped")
    func long() {
        var buffer = LineBuffer()
        for number in 0..<10_000 {
            buffer.append(Array("line \(number)\n".utf8))
            #expect(buffer.nextLine() == "line \(number)")
        }
    }

    @Test("secret editing: backspace removes whole characters, ^U clears, Enter ends")
    func secretEditing() {
        var editor = SecretLineEditor()
        for byte in Array("ab€".utf8) + [0x7F] + Array("c".utf8) { #expect(editor.feed(byte) == nil) }
        #expect(editor.feed(0x0D) == .line("abc"))

        var cleared = SecretLineEditor()
        for byte in Array("wrong".utf8) + [0x15] + Array("right".utf8) { _ = cleared.feed(byte) }
        #expect(cleared.feed(0x0A) == .line("right"))
    }

    @Test("secret editing: ^C interrupts, ^D ends only an empty line, end of input returns what was typed")
    func secretControl() {
        var interrupted = SecretLineEditor()
        _ = interrupted.feed(UInt8(ascii: "x"))
        #expect(interrupted.feed(0x03) == .interrupted)

        var ended = SecretLineEditor()
        #expect(ended.feed(0x04) == .endOfInput)

        var typed = SecretLineEditor()
        _ = typed.feed(UInt8(ascii: "x"))
        #expect(typed.feed(0x04) == nil)
        #expect(typed.feed(nil) == .line("x"))

        var backspaceOnEmpty = SecretLineEditor()
        #expect(backspaceOnEmpty.feed(0x7F) == nil)
        #expect(backspaceOnEmpty.feed(0x0D) == .line(""))
    }
}
