import Foundation

/// The words `top words` ranks: the text cut at anything that is not a letter, digit, `_` or an inner apostrophe,
/// lowercased, without URLs, `@mentions`, `#hashtags`, `$cashtags`, HTML entities, the `RT` of a retweet, numbers,
/// one-letter words, and the stop words of the tweet's language.
public enum TweetWords {
    /// The counted words of a text, in order, repeats kept.
    public static func words(in text: String, lang: String?) -> [String] {
        let stop = StopWords.list(for: lang)
        var result: [String] = []
        for piece in text.split(whereSeparator: { $0.isWhitespace }) {
            let lowered = piece.lowercased()
            if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") || lowered.hasPrefix("www.") { continue }
            if let first = lowered.first, "@#$".contains(first) { continue }
            var word = ""
            for character in lowered + " " {
                if character.isLetter || character.isNumber || character == "_"
                    || (character == "'" && !word.isEmpty)
                {
                    word.append(character)
                    continue
                }
                while word.hasSuffix("'") { word.removeLast() }
                if keeps(word, stop: stop) { result.append(word) }
                word = ""
            }
        }
        return result
    }

    private static func keeps(_ word: String, stop: Set<String>) -> Bool {
        guard word.count >= 2, word != "rt", !stop.contains(word) else { return false }
        guard !word.allSatisfy(\.isNumber) else { return false }
        // What is left of an HTML entity (&amp; → "amp").
        return !["amp", "gt", "lt", "quot"].contains(word)
    }
}

/// Small stop-word lists per language, the most frequent function words only (articles, pronouns, prepositions,
/// conjunctions, auxiliaries): enough to keep `top words` about content. Documented in docs/commands.md.
public enum StopWords {
    /// The languages with a list.
    public static let languages = ["en", "es", "fr", "de", "pt", "it"]

    /// The list for a BCP 47 tag's language (`en-GB` uses `en`); empty for other languages and `und`.
    public static func list(for lang: String?) -> Set<String> {
        guard let lang else { return [] }
        let base = lang.lowercased().split(separator: "-").first.map(String.init) ?? ""
        return lists[base] ?? []
    }

    private static let lists: [String: Set<String>] = [
        "en": words(
            "a an the and or but if of to in on at by for with from as is are was were be been being it its this that "
                + "these those i me my we our you your he him his she her they them their what which who whom not no "
                + "do does did have has had will would can could should so than then there here just about into out "
                + "up all any some more most very too also im it's i'm don't dont"),
        "es": words(
            "el la los las un una unos unas y o pero de del al a en con por para es son fue ser que se lo le les su "
                + "sus mi mis tu yo él ella nos no si sí más muy como este esta esto ese esa hay ya también me te"),
        "fr": words(
            "le la les un une des et ou mais de du au aux à en dans sur par pour avec est sont été être que qui se "
                + "ce cette ces il elle ils elles je tu nous vous on ne pas plus très comme son sa ses mon ma mes "
                + "l'on c'est j'ai qu'il d'un d'une y"),
        "de": words(
            "der die das ein eine einer eines und oder aber von zu im in an auf mit für ist sind war sein dass "
                + "nicht auch es ich du er sie wir ihr den dem des sich so wie noch nur mehr sehr bei aus"),
        "pt": words(
            "o a os as um uma uns umas e ou mas de do da dos das em no na nos nas por para com é são foi ser que se "
                + "não mais muito como eu tu ele ela nós eles elas seu sua meu minha isso este esta ao"),
        "it": words(
            "il lo la i gli le un uno una e o ma di del della dei in nel nella a al alla da con per su è sono era "
                + "essere che si non più molto come io tu lui lei noi voi loro mi ti ci questo questa anche"),
    ]

    private static func words(_ text: String) -> Set<String> {
        Set(text.split(separator: " ").map(String.init))
    }
}
