import Foundation

/// Splits Chinese, Japanese, Korean and Thai text into overlapping character pairs for the full-text index, and
/// queries the same way, so a word is found inside a longer run of those scripts.
///
/// These scripts do not put spaces between words, so FTS5's `unicode61` tokenizer sees a whole clause as one token and
/// `データ` never matches `データベース`. As Lucene's CJK analyzer does, each maximal run of such characters is indexed as
/// its overlapping bigrams (`デー ータ タベ ベー ース`); a query word becomes the phrase of its own bigrams, which the
/// run holds at consecutive positions wherever the word occurs inside it.
///
/// A single character has no bigram, so each run also ends with its last character as a token of its own
/// ("the tail"). A one-character query then matches as the prefix `"猫" *`: the character either starts a bigram or ends
/// a run, where the tail holds it. A query never asks for the tail unless the run ends there in the query too (a space,
/// Latin text or punctuation follows), so the extra token never breaks a phrase.
///
/// The units are `Character`s (grapheme clusters), so a Thai consonant keeps its vowel and tone marks. Within a run,
/// decomposed kana and Hangul are composed (NFC) and halfwidth katakana widened (NFKC); everywhere, fullwidth ASCII
/// (`２０２４`, `ＡＢＣ`) is folded to ASCII and variation selectors dropped, so an emoji's selector is no token.
package enum ScriptNGrams {
    /// The body text as the index should hold it. Text with no character this type changes comes back as it is.
    package static func indexText(_ text: String) -> String {
        guard needsWork(text) else { return text }
        return segment(text, queryEnd: false).text
    }

    /// A query word or phrase tokenized as `indexText` tokenizes documents. `prefix` is true when it ends with a run of
    /// one character, which must be matched as an FTS5 prefix (`"… 猫" *`) to find it inside longer runs.
    package static func queryText(_ text: String) -> (text: String, prefix: Bool) {
        guard needsWork(text) else { return (text, false) }
        return segment(text, queryEnd: true)
    }

    /// Whether any scalar of `text` is one this type segments or folds; all of them take three or four UTF-8 bytes,
    /// so ASCII, Latin, Greek and Cyrillic text is passed over by looking at its bytes alone.
    static func needsWork(_ text: String) -> Bool {
        guard text.utf8.contains(where: { $0 >= 0xE0 }) else { return false }
        return text.unicodeScalars.contains { isRunScalar($0.value) || foldedScalar($0.value) != $0.value }
    }

    /// Whether a character (by its first scalar) belongs to a run that is indexed as bigrams.
    static func isRunScalar(_ value: UInt32) -> Bool {
        switch value {
        case 0x0E01...0x0E3A, 0x0E40...0x0E4E: return true  // Thai letters, vowels, tone marks (not ฿, ๏, digits)
        case 0x1100...0x11FF, 0x3131...0x318E, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xD7B0...0xD7FF: return true  // Hangul
        case 0x3041...0x3096, 0x3099...0x309F: return true  // Hiragana
        case 0x30A1...0x30FA, 0x30FC...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F: return true  // Katakana (not ・)
        case 0x3005...0x3007, 0x3021...0x3029, 0x3038...0x303B: return true  // 々 〆 〇 and Han number signs
        case 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x3FFFF: return true  // Han ideographs
        default: return false
        }
    }

    /// What a scalar outside a run becomes: fullwidth ASCII its ASCII twin, the ideographic space a space, and a
    /// variation selector or the keycap mark nothing (0).
    static func foldedScalar(_ value: UInt32) -> UInt32 {
        switch value {
        case 0xFF01...0xFF5E: return value - 0xFEE0
        case 0x3000: return 0x20
        case 0xFE00...0xFE0F, 0xE0100...0xE01EF, 0x20E3: return 0
        default: return value
        }
    }

    /// Walks the text by scalar, so Latin text and emoji are copied without grapheme breaking; only a run is split
    /// into `Character`s. A run is a stretch of run scalars and the marks that follow them (a variation selector after
    /// a Han character, say), so every grapheme cluster that starts with a run scalar lies inside one run.
    private static func segment(_ text: String, queryEnd: Bool) -> (text: String, prefix: Bool) {
        let scalars = text.unicodeScalars
        var output = String.UnicodeScalarView()
        var prefix = false
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let scalar = scalars[index]
            if isRunScalar(scalar.value) {
                var end = scalars.index(after: index)
                while end < scalars.endIndex, isRunScalar(scalars[end].value) || isMark(scalars[end]) {
                    end = scalars.index(after: end)
                }
                // A query's last run may continue in the text, so it asks for no tail; a lone character is a prefix.
                let last = queryEnd && end == scalars.endIndex
                let length = flush(String(scalars[index..<end]), endsHere: !last, into: &output)
                prefix = last && length == 1
                index = end
                continue
            }
            let folded = foldedScalar(scalar.value)
            if folded == scalar.value {
                output.append(scalar)
            } else if folded != 0, let replacement = Unicode.Scalar(folded) {
                output.append(replacement)
            }
            index = scalars.index(after: index)
        }
        return (String(output), prefix)
    }

    private static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }

    /// Writes the run's bigrams, and its tail when the run ends here, between spaces; returns its length.
    @discardableResult
    static func flush(_ raw: String, endsHere: Bool, into output: inout String.UnicodeScalarView) -> Int {
        if raw.unicodeScalars.allSatisfy({ isWholeCharacter($0.value) }) {
            return write(Array(raw.unicodeScalars), endsHere: endsHere, into: &output) { $1.append($0) }
        }
        return flushByCharacter(raw, endsHere: endsHere, into: &output)
    }

    /// Whether a run scalar is always a character of its own and left alone by `normalized`: Han, kana (not the
    /// combining voiced marks), compatibility jamo and precomposed Hangul syllables. A run made only of these needs no
    /// grapheme breaking, which (with the normalization check) was most of the bigrams' cost on an import. Thai,
    /// conjoining jamo, halfwidth katakana and runs holding marks go through `flushByCharacter`.
    static func isWholeCharacter(_ value: UInt32) -> Bool {
        switch value {
        case 0x3041...0x3096, 0x309B...0x309F, 0x30A1...0x30FA, 0x30FC...0x30FF, 0x31F0...0x31FF: return true
        case 0x3131...0x318E, 0xAC00...0xD7A3: return true
        case 0x3005...0x3007, 0x3021...0x3029, 0x3038...0x303B: return true
        case 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x3FFFF: return true
        default: return false
        }
    }

    /// Writes the bigrams of `run`'s units and its tail as `flush` describes; returns the number of units.
    private static func write<Unit>(
        _ run: [Unit], endsHere: Bool, into output: inout String.UnicodeScalarView,
        _ append: (Unit, inout String.UnicodeScalarView) -> Void
    ) -> Int {
        output.append(" ")
        if run.count >= 2 {
            for index in 1..<run.count {
                append(run[index - 1], &output)
                append(run[index], &output)
                output.append(" ")
            }
        }
        if endsHere || run.count == 1, let last = run.last {
            append(last, &output)
            output.append(" ")
        }
        return run.count
    }

    /// `flush` for any run: split into characters after dropping what folds to nothing, and normalized.
    @discardableResult
    static func flushByCharacter(_ raw: String, endsHere: Bool, into output: inout String.UnicodeScalarView) -> Int {
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: raw.unicodeScalars.lazy.filter { foldedScalar($0.value) != 0 })
        let run = Array(normalized(String(kept)))
        return write(run, endsHere: endsHere, into: &output) { $1.append(contentsOf: $0.unicodeScalars) }
    }

    /// The run composed where it holds combining kana marks or Hangul jamo, and widened where it holds halfwidth
    /// katakana, so every spelling of a word gives the same bigrams.
    private static func normalized(_ run: String) -> String {
        var compose = false
        for scalar in run.unicodeScalars {
            switch scalar.value {
            // Foundation's NFKC leaves the widened voiced marks apart (テ + U+3099), so compose once more.
            case 0xFF66...0xFF9F:
                return run.precomposedStringWithCompatibilityMapping.precomposedStringWithCanonicalMapping
            case 0x3099, 0x309A, 0x1100...0x11FF, 0xA960...0xA97F, 0xD7B0...0xD7FF: compose = true
            default: break
            }
        }
        return compose ? run.precomposedStringWithCanonicalMapping : run
    }
}
