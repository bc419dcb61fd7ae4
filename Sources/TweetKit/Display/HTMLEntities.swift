/// Decodes the HTML character references X leaves in tweet text.
///
/// The API escapes only `&amp;`, `&lt;` and `&gt;`, but archives and older tools also carry `&quot;`, `&#39;` and
/// numeric references, so those are decoded too. Anything unrecognised is left as written: a tweet may really
/// contain "&copy" typed by a person.
public enum HTMLEntities {
    /// `text` with character references replaced by the characters they name.
    public static func decode(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var index = text.startIndex
        while let ampersand = text[index...].firstIndex(of: "&") {
            result += text[index..<ampersand]
            let afterAmpersand = text.index(after: ampersand)
            if let semicolon = text[afterAmpersand...].prefix(12).firstIndex(of: ";"),
                let replacement = character(for: text[afterAmpersand..<semicolon])
            {
                result.unicodeScalars.append(replacement)
                index = text.index(after: semicolon)
            } else {
                result.append("&")
                index = afterAmpersand
            }
        }
        result += text[index...]
        return result
    }

    private static func character(for name: Substring) -> Unicode.Scalar? {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        case "nbsp": return "\u{00A0}"
        default:
            guard name.hasPrefix("#") else { return nil }
            let digits = name.dropFirst()
            let value: UInt32?
            if digits.hasPrefix("x") || digits.hasPrefix("X") {
                value = UInt32(digits.dropFirst(), radix: 16)
            } else {
                value = UInt32(digits, radix: 10)
            }
            return value.flatMap(Unicode.Scalar.init)
        }
    }
}
