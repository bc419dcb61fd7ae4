import TweetKit

/// What a tweet names, as the sweep needs it: a relations-only model, plus the place and polls of its original and
/// its `__twarc` block.
package struct NamedObjects: Sendable {
    /// The tweet's relations (`referencedTweets`, `authorID`, `inReplyToUserID`, mentions, `mediaKeys`).
    package var tweet: Tweet
    /// `geo.place_id` of its original.
    package var place: String?
    /// `attachments.poll_ids` of its original.
    package var polls: [String]
    /// The id of its `__twarc` block.
    package var twarc: Int64?

    /// Names for a tweet.
    package init(_ tweet: Tweet, place: String? = nil, polls: [String] = [], twarc: Int64? = nil) {
        self.tweet = tweet
        self.place = place
        self.polls = polls
        self.twarc = twarc
    }
}

/// Decides what a dropped collection takes with it. Shared by both stores, which feed it rows and then carry out
/// what it finally holds.
///
/// A tweet of the collection that no other collection holds goes, unless a remaining search result quotes,
/// retweets or replies to it: then it stays as an included-only tweet (out of searches, as any tweet kept for
/// another's `includes`), so that result's export still carries it. The included-only tweets the dropped ones named
/// go unless a remaining result names them, and so do the users, media, places, polls and `__twarc` blocks that
/// only what goes names.
///
/// The steps, all inside the drop's transaction:
/// 1. `dropped(_:)` for each of the collection's own tweets;
/// 2. `unreadCandidates` read from the store as included-only tweets and given to `candidate(_:)`, the others to
///    `notIncluded(_:)`, until none is unread (an included tweet may name another: the quote inside a retweet);
/// 3. `remaining(_:includedOnly:)` for every other tweet of the store, skipping those `isCandidate(_:)` holds;
/// 4. `settle(reading:)`, which lets each candidate a remaining result named keep what it names.
///
/// Only a whole pass over the remaining tweets can say that nothing names an object: the stores keep no reverse
/// index of quotes, mentions or media (one would cost every import), and a drop is rare. The sweep holds ids only,
/// never models, so a drop of millions of tweets stays within tens of megabytes.
package struct OrphanSweep: Sendable {
    /// Candidate tweets not (yet) named by a remaining tweet: at the end, those to delete.
    package private(set) var tweets: Set<TweetID> = []
    /// Users (authors, replied-to and mentioned users) of what goes, not (yet) named by a remaining tweet.
    package private(set) var users: Set<UserID> = []
    /// Media keys of what goes, not (yet) named by a remaining tweet.
    package private(set) var media: Set<String> = []
    /// Place ids of what goes, not (yet) named by a remaining tweet.
    package private(set) var places: Set<String> = []
    /// Poll ids of what goes, not (yet) named by a remaining tweet.
    package private(set) var polls: Set<String> = []
    /// `__twarc` block ids of what goes, not (yet) named by a remaining tweet.
    package private(set) var twarcBlocks: Set<Int64> = []
    /// The collection's own tweets that no other collection holds.
    package private(set) var own: Set<TweetID> = []
    /// Candidates whose names were noted.
    private var read: Set<TweetID> = []
    /// Ids named by what goes that the store does not hold as included-only tweets.
    private var notCandidates: Set<TweetID> = []

    /// An empty sweep.
    package init() {}

    /// The collection's own tweets that stay, as included-only tweets, because a remaining tweet names them.
    package var demoted: Set<TweetID> { own.subtracting(tweets) }

    /// Whether a remaining tweet's original must be expanded: only its place and polls could still strike something.
    package var needsOriginals: Bool { !places.isEmpty || !polls.isEmpty }

    /// Whether nothing is left in question, so the pass over the remaining tweets can stop.
    package var isSettled: Bool {
        tweets.isEmpty && users.isEmpty && media.isEmpty && places.isEmpty && polls.isEmpty && twarcBlocks.isEmpty
    }

    /// One of the collection's own tweets that no other collection holds.
    package mutating func dropped(_ names: NamedObjects) {
        own.insert(names.tweet.id)
        notCandidates.remove(names.tweet.id)
        note(names)
    }

    /// Candidate tweets not yet given to `candidate(_:)` or `notIncluded(_:)`.
    package var unreadCandidates: Set<TweetID> { tweets.subtracting(read).subtracting(notCandidates) }

    /// An included-only tweet of the store that a dropped tweet (or another candidate) names.
    package mutating func candidate(_ names: NamedObjects) {
        guard tweets.contains(names.tweet.id), !read.contains(names.tweet.id) else { return }
        note(names)
    }

    /// Ids the store does not hold as included-only tweets: a tweet that is some collection's own is never deleted.
    package mutating func notIncluded(_ ids: some Sequence<TweetID>) {
        for id in ids where !read.contains(id) {
            tweets.remove(id)
            notCandidates.insert(id)
        }
    }

    /// Whether the pass should skip a tweet: a candidate no remaining result has named so far. (One named already is
    /// staying, and keeps what it names.)
    package func isCandidate(_ id: TweetID) -> Bool { tweets.contains(id) }

    /// A remaining tweet: the users, media, place, polls and block it names stay, and so do the tweets it names when
    /// it is a search result (`includedOnly` false). An included-only tweet's own references are never part of a
    /// page (`includes` go one level deep), so they keep nothing.
    package mutating func remaining(_ names: NamedObjects, includedOnly: Bool) {
        let tweet = names.tweet
        if !includedOnly, !read.contains(tweet.id) {
            for reference in tweet.referencedTweets { tweets.remove(reference.id) }
        }
        if let author = tweet.authorID { users.remove(author) }
        if let user = tweet.inReplyToUserID { users.remove(user) }
        for case let id? in tweet.entities.mentions.map(\.id) { users.remove(id) }
        for key in tweet.mediaKeys { media.remove(key) }
        if let place = names.place { places.remove(place) }
        for poll in names.polls { polls.remove(poll) }
        if let twarc = names.twarc { twarcBlocks.remove(twarc) }
    }

    /// After the pass: each candidate a remaining result named stays, as an included-only tweet, and so do the
    /// users, media, place, polls and block it names. `reading` gives those candidates' names again from the store.
    package mutating func settle(reading: ([TweetID]) throws -> [NamedObjects]) rethrows {
        for names in try reading(read.subtracting(tweets).sorted()) { remaining(names, includedOnly: true) }
    }

    private mutating func note(_ names: NamedObjects) {
        let tweet = names.tweet
        tweets.insert(tweet.id)
        read.insert(tweet.id)
        for reference in tweet.referencedTweets where !notCandidates.contains(reference.id) {
            tweets.insert(reference.id)
        }
        if let author = tweet.authorID { users.insert(author) }
        if let user = tweet.inReplyToUserID { users.insert(user) }
        for case let id? in tweet.entities.mentions.map(\.id) { users.insert(id) }
        for key in tweet.mediaKeys { media.insert(key) }
        if let place = names.place { places.insert(place) }
        polls.formUnion(names.polls)
        if let twarc = names.twarc { twarcBlocks.insert(twarc) }
    }
}
