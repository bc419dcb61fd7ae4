import Foundation
import TweetKit

extension XAPISource {
    /// One hydration batch: `GET /2/tweets?ids=` for 1–100 ids with every field set search asks for, even for a
    /// single id (whose own endpoint answers a missing tweet differently), decoded with the originals and twarc2's
    /// provenance. Ids X does not return are in the page's `errors` (deleted, suspended, protected) or absent.
    ///
    /// Pages are not written to the page cache: a hydration's answers are kept by the caller, in its collection.
    public func hydrate(ids: [TweetID]) async throws -> Page {
        guard (1...100).contains(ids.count) else {
            throw XAPIError.invalidRequest("A tweets lookup takes 1 to 100 ids at once; \(ids.count) were given.")
        }
        let endpoint = "GET /2/tweets"
        let query =
            [URLQueryItem(name: "ids", value: ids.map(\.description).joined(separator: ","))]
            + XAPIFields.tweetQueryItems
        let data = try await client.get("/2/tweets", endpoint: endpoint, query: query)
        var page: Page
        do {
            page = try APIResponseDecoder.decodePage(from: data, keepOriginals: true)
        } catch {
            throw XAPIError.malformedResponse(endpoint: endpoint, reason: "\(error)")
        }
        let url = client.configuration.settings.url(path: "/2/tweets", query: query)?.absoluteString ?? "/2/tweets"
        page.originals.twarc = TwarcMetadata(url: url, retrievedAt: client.configuration.clock.now()).original
        return page
    }
}
