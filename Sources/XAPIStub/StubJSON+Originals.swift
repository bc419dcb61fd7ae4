import Foundation
import TweetKit

/// Serving a corpus's original JSON: each object keeps the members the request's field list names (plus the ones
/// the API always sends), and `geo.place_id` and `attachments.poll_ids` expand into `includes.places` and `polls`.
extension StubJSON {
    static let defaultPlaceFields: Set<String> = ["id", "full_name"]
    static let defaultPollFields: Set<String> = ["id", "options"]

    /// The original's members that `fields` asks for; nil without an original.
    static func filtered(_ original: OriginalJSON?, fields: Set<String>, defaults: Set<String>) -> [String: Any]? {
        guard let original,
            let object = (try? JSONSerialization.jsonObject(with: Data(original.bytes))) as? [String: Any]
        else { return nil }
        return object.filter { defaults.contains($0.key) || fields.contains($0.key) }
    }

    /// The places and polls the tweets refer to, when the request expands them.
    static func placesAndPolls(
        for tweets: [Tweet], corpus: StubCorpus, expansions: Set<String>, placeFields: Set<String>,
        pollFields: Set<String>
    ) -> (places: [[String: Any]], polls: [[String: Any]]) {
        var placeIDs: [String] = []
        var pollIDs: [String] = []
        for tweet in tweets {
            guard let original = corpus.originals.tweets[tweet.id] else { continue }
            let (place, polls) = original.placeAndPolls
            if expansions.contains("geo.place_id"), let place, !placeIDs.contains(place) { placeIDs.append(place) }
            if expansions.contains("attachments.poll_ids") { pollIDs += polls.filter { !pollIDs.contains($0) } }
        }
        let places = placeIDs.compactMap {
            filtered(corpus.originals.places[$0], fields: placeFields, defaults: defaultPlaceFields)
        }
        let polls = pollIDs.compactMap {
            filtered(corpus.originals.polls[$0], fields: pollFields, defaults: defaultPollFields)
        }
        return (places, polls)
    }
}
