import Foundation
import TweetKit

/// Schema step "explore keys" (version 7): `tweet_keys` holds each search result's hashtags, mentions and domains in
/// the form `top` and `stats` rank (`ExploreKeys`), one row per result that has any, keyed by the tweet id.
///
/// The writer keeps it in step with `tweets` (a copy stored again replaces its row); a trigger removes the row of a
/// deleted tweet. The step fills it from the rows already stored, decoding the entities of the results whose flags say
/// they have hashtags, mentions or links. On a million tweets that takes seconds (37 s on the shared 2-core machine at
/// load 25), so opening the store announces it, as it does a re-index.
extension Schema {
    static let exploreKeysMigration = Migration(sql: exploreKeysSQL, rebuild: fillExploreKeys, reindexes: true)

    /// The SQL of the step.
    static let exploreKeysSQL = """
        CREATE TABLE tweet_keys(
            tweet INTEGER PRIMARY KEY,
            hashtags BLOB,
            mentions BLOB,
            domains BLOB
        );
        CREATE TRIGGER tweet_keys_follow_deletes AFTER DELETE ON tweets BEGIN
            DELETE FROM tweet_keys WHERE tweet = old.id;
        END;
        """

    /// Gives every stored result with keys its row, in id order (so the table's B-tree is appended to).
    static func fillExploreKeys(_ connection: Connection) throws {
        let entityFlags = TweetFlags.hashtags.rawValue | TweetFlags.mentions.rawValue | TweetFlags.links.rawValue
        let rows = try connection.prepare(
            """
            SELECT t.id, t.extra FROM tweets t
            WHERE (t.flags & \(TweetFlags.includedOnly.rawValue)) = 0 AND (t.flags & \(entityFlags)) != 0 ORDER BY t.id
            """)
        defer { rows.reset() }
        let writer = try ExploreKeysWriter(connection: connection)
        while try rows.step() {
            let rowid = rows.int64(0)
            var tweet = Tweet(id: TweetID(UInt64(bitPattern: rowid)), text: "")
            // A damaged record gets no keys rather than keeping the store from opening; reading it fails as before.
            guard (try? TweetRecord.decodeExtra(rows.blob(1), into: &tweet)) != nil else { continue }
            try writer.insert(rowid, ExploreKeys(tweet))
        }
    }
}
