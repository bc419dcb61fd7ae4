import CLibEdit
import Glibc

/// The number of terminal columns text occupies, from the C library's wcwidth in a UTF-8 locale.
enum DisplayWidth {
    static func of(_ text: String) -> Int {
        ensureUTF8Locale()
        var total = 0
        for scalar in text.unicodeScalars {
            let width = CLibEdit_wcwidth(wchar_t(bitPattern: scalar.value))
            // Control characters report -1; they take no column of their own.
            total += max(0, Int(width))
        }
        return total
    }
}
