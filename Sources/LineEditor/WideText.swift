import CLibEdit
import Glibc

/// Conversions between Swift strings and the `wchar_t` strings of libedit's wide API.
///
/// On Linux `wchar_t` holds one Unicode scalar, so the conversion needs no locale; libedit itself does need a UTF-8
/// `LC_CTYPE` to turn terminal bytes and history files into wide characters, which `ensureUTF8Locale` provides.
enum WideText {
    /// A NUL-terminated copy of `text`. NUL scalars inside the text are dropped because they would end the C string.
    static func characters(_ text: String) -> [wchar_t] {
        var result: [wchar_t] = []
        result.reserveCapacity(text.unicodeScalars.count + 1)
        for scalar in text.unicodeScalars where scalar.value != 0 {
            result.append(wchar_t(bitPattern: scalar.value))
        }
        result.append(0)
        return result
    }

    /// Reads `count` wide characters, or up to the terminating NUL when `count` is nil.
    static func string(_ pointer: UnsafePointer<wchar_t>, count: Int? = nil) -> String {
        var scalars = String.UnicodeScalarView()
        var index = 0
        while count.map({ index < $0 }) ?? (pointer[index] != 0) {
            let value = UInt32(bitPattern: pointer[index])
            scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
            index += 1
        }
        return String(scalars)
    }

    /// Calls `body` with a NUL-terminated wide copy of `text`.
    static func withCharacters<Result>(_ text: String, _ body: (UnsafePointer<wchar_t>) throws -> Result) rethrows
        -> Result
    {
        let characters = characters(text)
        return try characters.withUnsafeBufferPointer { try body($0.baseAddress!) }
    }
}

/// Makes `LC_CTYPE` a UTF-8 locale once per process.
///
/// libedit converts between terminal bytes, history-file bytes and wide characters with the C library's multibyte
/// functions. In the "C" locale every non-ASCII character would be dropped from history files and typed lines, so a
/// process that has not chosen a UTF-8 locale gets the user's one when it is UTF-8, and `C.UTF-8` otherwise.
/// Only `LC_CTYPE` changes: number and date formatting stay as the program set them.
func ensureUTF8Locale() {
    _ = utf8LocaleOnce
}

private let utf8LocaleOnce: Bool = {
    if currentCodesetIsUTF8() { return true }
    if setlocale(LC_CTYPE, "") != nil, currentCodesetIsUTF8() { return true }
    for name in ["C.UTF-8", "C.utf8", "en_US.UTF-8"] where setlocale(LC_CTYPE, name) != nil {
        if currentCodesetIsUTF8() { return true }
    }
    return false
}()

private func currentCodesetIsUTF8() -> Bool {
    guard let codeset = nl_langinfo(nl_item(CODESET)) else { return false }
    let name = String(cString: codeset).lowercased()
    return name == "utf-8" || name == "utf8"
}
