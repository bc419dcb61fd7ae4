import TweetKit

/// The included tweets of a batch's pages, held back until the batch's results are known: the last copy of each id,
/// with its original and its `__twarc` block (a string for this store, a block key for PostgreSQL's).
///
/// A result beats an included copy of the same tweet, and among included copies the last wins, so both stores' batches
/// prepare (compress, encode) only what `copies(notAmong:)` returns; every other copy was work that the batch's
/// ordering threw away. Search pages come newest first, so a reply's parent is included before it comes as a result,
/// and a much retweeted tweet is included once per page that retweets it.
package struct IncludedCopies<Block> {
    private var copies: [(tweet: Tweet, original: OriginalJSON?, block: Block)] = []
    private var positions: [TweetID: Int] = [:]

    /// None yet.
    package init() {}

    /// Keeps this copy of `tweet` in place of any earlier one.
    package mutating func keep(_ tweet: Tweet, original: OriginalJSON?, block: Block) {
        if let position = positions[tweet.id] {
            copies[position] = (tweet, original, block)
        } else {
            positions[tweet.id] = copies.count
            copies.append((tweet, original, block))
        }
    }

    /// The kept copies, in order of first arrival, but for the tweets `isResult` names.
    package func copies(notAmong isResult: (TweetID) -> Bool) -> [(tweet: Tweet, original: OriginalJSON?, block: Block)]
    {
        copies.filter { !isResult($0.tweet.id) }
    }
}
