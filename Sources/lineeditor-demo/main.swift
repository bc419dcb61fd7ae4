// A tiny REPL over LineEditor, for trying the reader by hand and for the pseudo-terminal end-to-end test.
//
// It completes a fixed word list, keeps history at the default path (honouring XDG_STATE_HOME), treats lines starting
// with "auth " as sensitive, and reads a secret without echo after the line "secret". Every result is reported on its
// own line so a test can follow along. Completing the word "!crash" traps inside the completion callback, so a test
// can check that the terminal is restored when the process dies mid-edit.
import Glibc
import LineEditor

let words = ["search", "show", "source", "status", "more", "quit", "#swift", "#swiftlang", "@jack", "@jane", "café"]

func run() throws {
    let history = try History(path: History.defaultPath(), isSensitive: { $0.hasPrefix("auth ") })
    let configuration = LineReaderConfiguration(
        history: history,
        completion: { request in
            if request.word == "!crash" { fatalError("crash requested from the completion callback") }
            return words.filter { $0.hasPrefix(request.word) }
        })
    let reader = try LineReaders.standard(configuration)
    while true {
        switch try reader.readLine(prompt: "\u{1B}[1;34mdemo\u{1B}[0m> ") {
        case .line("secret"):
            switch try reader.readSecret(prompt: "token: ") {
            case .line(let secret): print("secret: \(secret.count) characters")
            case .interrupted: print("secret: interrupted")
            case .endOfInput: print("secret: end of input")
            }
        case .line(let line):
            print("got: [\(line)]")
        case .interrupted:
            print("interrupted")
        case .endOfInput:
            print("end of input")
            return
        }
    }
}

do {
    try run()
} catch {
    let message = Array("lineeditor-demo: \(error)\n".utf8)
    _ = message.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    exit(1)
}
