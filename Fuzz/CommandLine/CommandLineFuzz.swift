// Fuzzes the shell's command-line parser, the launch options and the config file parser, all compiled into this module
// from Sources/TweetShell/Commands and Config. The input is one command line; split at newlines it is also an argument
// vector for `LaunchOptions.parse`, and as a whole it is a config file.
/// libFuzzer's entry point: one input of `size` bytes at `data`; returns 0, as libFuzzer requires.
@_cdecl("LLVMFuzzerTestOneInput")
public func commandLineFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if let error = catchCommandError({ () throws(CommandError) in _ = try ShellCommand.parse(text) }) {
        _ = error.description
    }
    let arguments = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    _ = catchCommandError { () throws(CommandError) in _ = try LaunchOptions.parse(arguments) }
    _ = ShellConfig.parse(text, file: "fuzz")
    return 0
}

private func catchCommandError(_ body: () throws(CommandError) -> Void) -> CommandError? {
    do {
        try body()
        return nil
    } catch {
        return error
    }
}
