import Foundation
import TweetKit

extension TweetStore {
    /// The stored tweets of the thread a tweet belongs to, oldest first: its conversation (`conversation_id`), plus the
    /// reply chain through it, which sources without conversation ids (X account archives, v1.1 data) need. The chain
    /// is followed up through the tweets it replies to and down through every stored reply (`refs` `p<id>` tokens), as
    /// far as the store holds it. `root` is the conversation id when known, else the oldest tweet reached upwards.
    public func thread(of id: TweetID, limit: Int = 200) async throws -> (root: TweetID, page: Page) {
        let limit = max(1, limit)
        let conversationPage: Page?
        let start = try await database.run { try Reader(connection: $0).tweet(id) }
        if let conversation = start?.conversationID {
            conversationPage = try await self.conversation(id: conversation, cursor: nil, limit: limit)
        } else {
            conversationPage = nil
        }
        return try await database.run { connection in
            let reader = Reader(connection: connection)
            var found: [TweetID: Tweet] = [:]
            for tweet in conversationPage?.tweets ?? [] { found[tweet.id] = tweet }
            guard var top = start else { return (id, try reader.page(with: [])) }
            found[top.id] = top
            // Up: the tweets replied to, while the store has them.
            while let parentID = top.repliedToID, found.count < limit, let parent = try reader.tweet(parentID) {
                found[parent.id] = parent
                top = parent
            }
            // Down: replies to every tweet reached, breadth first.
            var queue = Array(found.keys)
            var seen = Set(queue)
            while let next = queue.popLast(), found.count < limit {
                let match = "refs:\"" + TweetDocument.parentToken(next.rawValue) + "\""
                let replies = try connection.rows(
                    "SELECT rowid FROM tweets_fts WHERE tweets_fts MATCH ? ORDER BY rowid", [.text(match)]
                ) { TweetID(UInt64(bitPattern: $0.int64(0))) }
                for reply in replies where seen.insert(reply).inserted {
                    guard found.count < limit, let tweet = try reader.tweet(reply) else { continue }
                    found[reply] = tweet
                    queue.append(reply)
                }
            }
            let root = start?.conversationID ?? top.conversationID ?? top.id
            return (root, try reader.page(with: found.values.sorted { $0.id < $1.id }))
        }
    }

    /// Keeps the handles of users replied to, which archives name only in `in_reply_to_screen_name`, for `to:handle`.
    func recordReplyHandles(_ handles: [UserID: String]) async throws {
        guard !handles.isEmpty else { return }
        try await database.run { connection in
            try connection.transaction {
                for (id, handle) in handles.sorted(by: { $0.key < $1.key }) {
                    try connection.withStatement(
                        "INSERT OR IGNORE INTO reply_handles(username, id) VALUES (?, ?)",
                        [.text(handle), .integer(Int64(bitPattern: id.rawValue))]
                    ) { _ = try $0.step() }
                }
            }
        }
    }
}
