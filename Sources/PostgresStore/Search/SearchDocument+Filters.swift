import TweetStore

extension SearchDocument {
    /// The flags a query can name (`is:` and `has:`): retweet, reply, quote, links, media, mentions, hashtags, the
    /// low seven bits of `TweetFlags`.
    static let filterBits = 0..<7

    /// The lexeme of a flag: `=f` and the bit's index. The tokenizer never keeps `=`, so no word can collide.
    static func flagLexeme(_ flag: TweetFlags) -> String? {
        guard flag.rawValue > 0, flag.rawValue & (flag.rawValue - 1) == 0 else { return nil }
        let bit = flag.rawValue.trailingZeroBitCount
        return filterBits.contains(bit) ? "=f\(bit)" : nil
    }

    /// The lexeme of a language code: `=l` and the code lower-cased in ASCII only, as SQLite's `lower` does (NUL,
    /// which PostgreSQL text cannot hold, dropped as the row's copy drops it).
    static func languageLexeme(_ code: String) -> String {
        var lexeme = "=l"
        for scalar in code.unicodeScalars where scalar != "\u{0}" {
            if scalar.value >= 65 && scalar.value <= 90 {
                lexeme.unicodeScalars.append(Unicode.Scalar(scalar.value + 32)!)
            } else {
                lexeme.unicodeScalars.append(scalar)
            }
        }
        return lexeme
    }

    /// The position-less lexemes a document carries for its tweet's flags and language, so `is:reply` or `lang:en`
    /// is an index term like a word. Schema version 2 adds the same lexemes to stored documents
    /// (`PostgresSchema.version2`).
    static func filterLexemes(flags: TweetFlags, lang: String?) -> [String] {
        var lexemes: [String] = []
        for bit in filterBits where flags.rawValue & (1 << bit) != 0 { lexemes.append("=f\(bit)") }
        if let lang {
            let lexeme = languageLexeme(lang)
            if lexeme.utf8.count <= longestLexeme { lexemes.append(lexeme) }
        }
        return lexemes
    }
}
