import Foundation
import Testing
import TweetKit

@testable import TweetStore

/// The index document's text: an index built by an earlier tweetsh must get exactly the same values back when an
/// entry is removed (the index is contentless), so a faster way of making them must not change one byte.
@Suite("Tweet document")
struct TweetDocumentTests {
    /// What `unescapeHTML` did before it became one pass: Foundation replacing each entity in turn, `&amp;` last.
    static func replacingInTurn(_ text: String) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    @Test func entitiesAreDecodedOnce() {
        #expect(TweetDocument.unescapeHTML("AT&amp;T &lt;b&gt; &quot;hi&quot; it&#39;s") == "AT&T <b> \"hi\" it's")
        // `&amp;lt;` is the text `&lt;`, not `<`.
        #expect(TweetDocument.unescapeHTML("&amp;lt; &amp;amp;") == "&lt; &amp;")
        #expect(TweetDocument.unescapeHTML("& &am &amp &#39 &;") == "& &am &amp &#39 &;")
        #expect(TweetDocument.unescapeHTML("no entities") == "no entities")
        #expect(TweetDocument.unescapeHTML("日本&amp;語 🚀&gt;") == "日本&語 🚀>")
    }

    /// Random texts made of entity fragments, ampersands and multi-byte characters give what replacing in turn gave.
    @Test func matchesReplacingInTurnOnRandomTexts() {
        let pieces = [
            "&", "amp;", "lt;", "gt;", "quot;", "#39;", "&amp;", "&lt;", "&gt", "&quot;", "&#39;", ";", "a", " ", "é",
            "日", "🚀", "#", "3", "9", "q",
        ]
        var generator = SplitMix64(seed: 12)
        for _ in 0..<5_000 {
            let count = Int.random(in: 0...12, using: &generator)
            let text = (0..<count).map { _ in pieces.randomElement(using: &generator)! }.joined()
            #expect(TweetDocument.unescapeHTML(text) == Self.replacingInTurn(text), "\(text)")
        }
    }
}
