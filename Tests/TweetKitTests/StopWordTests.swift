import Testing
import TweetKit

@Suite("top words: stop words per language, URLs and entities left out")
struct StopWordTests {
    @Test func english() {
        #expect(TweetWords.words(in: "The rain in Spain is on the plain", lang: "en") == ["rain", "spain", "plain"])
        #expect(TweetWords.words(in: "The rain", lang: "en-GB") == ["rain"])
    }

    @Test func spanish() {
        #expect(
            TweetWords.words(in: "La lluvia en Sevilla es una maravilla", lang: "es") == [
                "lluvia", "sevilla", "maravilla",
            ])
    }

    @Test func french() {
        #expect(TweetWords.words(in: "Le café est dans la tasse et c'est bon", lang: "fr") == ["café", "tasse", "bon"])
    }

    @Test func german() {
        #expect(
            TweetWords.words(in: "Der Kaffee ist nicht für mich und dich", lang: "de") == ["kaffee", "mich", "dich"])
    }

    @Test func portuguese() {
        #expect(TweetWords.words(in: "O café é para os amigos da cidade", lang: "pt") == ["café", "amigos", "cidade"])
    }

    @Test func italian() {
        #expect(
            TweetWords.words(in: "Il caffè della mattina è per gli amici", lang: "it") == ["caffè", "mattina", "amici"])
    }

    @Test func otherLanguagesKeepEveryWordButTheNoise() {
        // No list for Dutch: "de" and "het" stay (they are German or nothing elsewhere); URLs, entities, RT, numbers,
        // one-letter words and entity leftovers go.
        let text = "RT @anna: de koffie &amp; het brood https://t.co/abc #ontbijt $AAPL 2024 x www.example.com"
        #expect(TweetWords.words(in: text, lang: "nl") == ["de", "koffie", "het", "brood"])
        #expect(TweetWords.words(in: "The the", lang: nil) == ["the", "the"])
    }
}
