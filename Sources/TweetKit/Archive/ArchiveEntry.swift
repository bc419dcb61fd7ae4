import Foundation

/// What an X account archive's tweet entries say in their own way, beyond what `V1SearchDecoder` reads from a v1.1
/// status.
enum ArchiveEntry {
    /// An archive lists a retweet as the owner's own entry with the text `RT @x: …`, without `retweeted_status` and
    /// without the original's id. Such an entry is marked as a retweet of an unidentified original, so `is:retweet`
    /// finds it and `show` can name the retweeted account.
    static func markRetweet(_ tweet: inout Tweet) {
        guard tweet.retweetedID == nil, let handle = tweet.retweetedUsernameFromText,
            tweet.text.dropFirst(4 + handle.count).hasPrefix(":")
        else { return }
        tweet.retweetsUnidentifiedOriginal = true
    }

    /// Records `in_reply_to_user_id_str` → `in_reply_to_screen_name`, when the entry has both.
    static func collectReplyHandle(_ entry: JSONValue, into handles: inout [UserID: String]) {
        guard let id = entry["in_reply_to_user_id_str"]?.snowflake ?? entry["in_reply_to_user_id"]?.snowflake,
            let handle = entry["in_reply_to_screen_name"]?.string, !handle.isEmpty
        else { return }
        handles[id] = handle
    }
}

extension ArchiveReader {
    /// Without `account.js` an archive's tweets have no author: the file is the only place that names the owner.
    static func ownerWarnings(dataFolder: URL, owner: User?) -> [String] {
        let account = dataFolder.appendingPathComponent("account.js")
        guard !FileManager.default.fileExists(atPath: account.path) else { return [] }
        if let owner {
            return [
                "\(account.path) is missing: the author is @\(owner.username) from manifest.js, without the "
                    + "account's creation date"
            ]
        }
        return [
            "\(account.path) is missing: the tweets have no author, so from: cannot find them and show names no one; "
                + "put account.js from the same archive beside tweets.js and import again"
        ]
    }
}
