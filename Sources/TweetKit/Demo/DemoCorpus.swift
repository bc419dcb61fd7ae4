import Foundation

/// A deterministic, realistic-looking collection of generated tweets: the first-run demo data and the benchmark
/// workload.
///
/// The same seed and sizes give the same tweets on every run and machine. Pages are produced lazily, so a million
/// tweets stream through in constant memory. Every tweet's `source` and every user's bio say the data is generated.
///
/// What makes it realistic enough to exercise search: a few users post most tweets and a few words make most text
/// (both Zipf-like); replies join threads that share a `conversation_id`; retweets carry the API's truncated
/// `RT @user: …` text with the original in the page's included tweets; quotes link their original; hashtags,
/// mentions and `t.co` URLs with `expanded_url` come with code-point offsets; ten languages including scripts
/// without spaces and right-to-left; emoji outside the BMP; `&amp;`-escaped text; heavy-tailed metrics; and
/// timestamps spread over six months.
public struct DemoCorpus: Sequence, Sendable {
    /// The label generated tweets carry as their `source`.
    public static let sourceLabel = "tweetsh demo generator"
    /// Words that occur in roughly one tweet in 30,000 each, for measuring rare-term searches.
    public static var rareWords: [String] { DemoVocabulary.rareWords }
    /// The most common words per language code, for measuring common-term searches.
    public static func commonWords(language: String) -> [String] {
        DemoVocabulary.languages.first { $0.code == language }.map { Array($0.words.prefix(10)) } ?? []
    }
    /// The hashtags the generator draws from, most frequent first.
    public static var hashtags: [String] { DemoVocabulary.hashtags }

    /// The seed everything is drawn from.
    public let seed: UInt64
    /// How many tweets the sequence yields in all.
    public let tweetCount: Int
    /// Tweets per page (the last page may hold fewer).
    public let pageSize: Int
    /// The generated accounts, most active first.
    public let users: [User]
    /// Each user's usual language (an index into the vocabulary), so a person mostly tweets in one language.
    let userLanguages: [Int]
    /// The first tweet's time; tweets are spread evenly (with jitter) over `span` seconds from here.
    public let startDate: Date
    /// The time the tweets cover.
    public let span: TimeInterval

    /// Creates a corpus. `userCount` defaults to one account per 40 tweets, between 30 and 50,000.
    public init(
        seed: UInt64 = 1, tweetCount: Int = 3000, pageSize: Int = 100, userCount: Int? = nil,
        startDate: Date = Date(timeIntervalSince1970: 1_764_547_200), span: TimeInterval = 182 * 86400
    ) {
        self.seed = seed
        self.tweetCount = Swift.max(0, tweetCount)
        self.pageSize = Swift.max(1, pageSize)
        self.startDate = startDate
        self.span = span
        let count = userCount ?? Swift.min(Swift.max(tweetCount / 40, 30), 50_000)
        (self.users, self.userLanguages) = DemoCorpus.makeUsers(
            count: Swift.max(1, count), seed: seed, before: startDate)
    }

    /// What the shell puts into an empty store on its first run; tests that count the store's tweets start from it.
    public static var firstRun: DemoCorpus { DemoCorpus(seed: 2024, tweetCount: 3000) }

    /// Pages of generated tweets, oldest page first, each page newest first as the API orders it.
    public func makeIterator() -> DemoPageIterator {
        DemoPageIterator(corpus: self)
    }

    /// Writes the whole corpus as twarc2 JSONL (one page per line, with `__twarc` naming the generator) and returns
    /// the number of tweets written.
    @discardableResult
    public func writeTwarc2JSONL(to handle: FileHandle) throws -> Int {
        let metadata = TwarcMetadata(
            url: "tweetsh-demo:seed=\(seed)", version: DemoCorpus.sourceLabel,
            retrievedAt: startDate.addingTimeInterval(span))
        let writer = ExportFileWriter(handle: handle, format: .twarc2JSONL, metadata: metadata)
        for page in self { try writer.write(page) }
        try writer.finish()
        return writer.tweetsWritten
    }

    static func makeUsers(count: Int, seed: UInt64, before date: Date) -> ([User], [Int]) {
        var random = SplitMix64(seed: seed ^ 0x5EED_05E5)
        let languages = DemoVocabulary.languages
        var userLanguages: [Int] = []
        userLanguages.reserveCapacity(count)
        let users = (0..<count).map { index in
            let language = DemoCorpus.pickLanguage(&random)
            userLanguages.append(language)
            let first = random.pick(languages[language].firstNames)
            let surname = random.pick(DemoVocabulary.surnames)
            let username = "\(first)_\(index)"
            let followers = Int(pow(10, 1 + 5 * pow(random.unit(), 3))) + (index < count / 100 ? 50_000 : 0)
            let created = date.addingTimeInterval(-Double(86400 * (30 + random.below(5000)) + random.below(86400)))
            return User(
                id: UserID(100_000_000 + UInt64(index) * 7919 + UInt64(random.below(7919))), username: username,
                name: "\(first.capitalized) \(surname.capitalized)",
                profileImageURL: "https://pbs.twimg.com/profile_images/\(index)/demo_normal.jpg",
                verified: random.chance(0.03), description: "Generated demo account (\(DemoCorpus.sourceLabel))",
                location: nil, createdAt: created, protected: false,
                metrics: UserMetrics(
                    followers: followers, following: random.below(2000), tweets: random.below(40_000),
                    listed: random.below(200)),
                url: nil)
        }
        return (users, userLanguages)
    }

    static let languageTotal = DemoVocabulary.languages.reduce(0) { $0 + $1.weight }

    static func pickLanguage(_ random: inout SplitMix64) -> Int {
        var ticket = random.below(languageTotal)
        for (index, language) in DemoVocabulary.languages.enumerated() {
            if ticket < language.weight { return index }
            ticket -= language.weight
        }
        return 0
    }
}

/// Produces a `DemoCorpus` page by page; holds only a bounded window of recent tweets for threads and retweets.
public struct DemoPageIterator: IteratorProtocol {
    private let corpus: DemoCorpus
    private var random: SplitMix64
    private var produced = 0
    /// Recent original tweets (not retweets) that replies, retweets and quotes draw on.
    private var recent: [Tweet] = []
    private var recentNext = 0
    private static let recentCapacity = 4096
    /// Snowflake epoch (2010-11-04T01:42:54.657Z), so generated ids order like real ones.
    private static let twitterEpochMilliseconds: Int64 = 1_288_834_974_657

    init(corpus: DemoCorpus) {
        self.corpus = corpus
        self.random = SplitMix64(seed: corpus.seed)
        recent.reserveCapacity(Self.recentCapacity)
    }

    /// The next page, or nil after `tweetCount` tweets.
    public mutating func next() -> Page? {
        guard produced < corpus.tweetCount else { return nil }
        let count = min(corpus.pageSize, corpus.tweetCount - produced)
        var builder = PageBuilder()
        var tweets: [Tweet] = []
        tweets.reserveCapacity(count)
        for _ in 0..<count {
            tweets.append(makeTweet(into: &builder))
            produced += 1
        }
        // The API returns newest first.
        var page = builder.page
        page.tweets = tweets.reversed()
        page.newestID = page.tweets.first?.id
        page.oldestID = page.tweets.last?.id
        page.resultCount = page.tweets.count
        if produced < corpus.tweetCount { page.nextToken = "demo\(corpus.seed)-\(produced)" }
        return page
    }

    private mutating func makeTweet(into builder: inout PageBuilder) -> Tweet {
        let index = produced
        let gap = corpus.span / Double(max(corpus.tweetCount, 1))
        let time = corpus.startDate.timeIntervalSince1970 + gap * Double(index) + gap * 0.9 * random.unit()
        let milliseconds = Int64(time * 1000)
        let id = TweetID(UInt64(milliseconds - Self.twitterEpochMilliseconds) << 22 | UInt64(index & 0x3F_FFFF))
        let authorIndex = random.zipf(corpus.users.count)
        let author = corpus.users[authorIndex]
        builder.addUser(author)

        let roll = random.unit()
        if roll < 0.18, let original = pickRecent() {
            return makeRetweet(id: id, milliseconds: milliseconds, author: author, original: original, into: &builder)
        }
        var text = TextBuilder()
        var tweet = Tweet(id: id, text: "")
        tweet.authorID = author.id
        tweet.createdAt = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        tweet.source = DemoCorpus.sourceLabel
        tweet.conversationID = id
        var languageIndex = random.chance(0.85) ? corpus.userLanguages[authorIndex] : DemoCorpus.pickLanguage(&random)

        if roll < 0.43, let parent = pickRecent() {
            // A reply: same conversation, same language, opening with the parent author's handle.
            tweet.conversationID = parent.conversationID ?? parent.id
            tweet.inReplyToUserID = parent.authorID
            tweet.referencedTweets.append(ReferencedTweet(kind: .repliedTo, id: parent.id))
            builder.addIncluded(parent)
            // Replies open with the handle they answer, except in a thread continuing one's own tweet.
            if let parentAuthor = parent.authorID.flatMap(user(withID:)), parentAuthor.id != author.id {
                builder.addUser(parentAuthor)
                let start = text.count
                text.append("@\(parentAuthor.username)")
                tweet.entities.mentions.append(
                    Mention(start: start, end: text.count, username: parentAuthor.username, id: parentAuthor.id))
                text.append(" ")
            }
            languageIndex = DemoVocabulary.languages.firstIndex { $0.code == parent.lang } ?? languageIndex
        } else if roll < 0.50, let quoted = pickRecent() {
            tweet.referencedTweets.append(ReferencedTweet(kind: .quoted, id: quoted.id))
            builder.addIncluded(quoted)
            if let quotedAuthor = quoted.authorID.flatMap(user(withID:)) { builder.addUser(quotedAuthor) }
        }
        let language = DemoVocabulary.languages[languageIndex]
        tweet.lang = language.code

        if random.chance(0.12) {
            addHashtag(to: &tweet, text: &text)
            text.append(" ")
        }
        appendSentence(language, to: &text)
        let mentioned = corpus.users[random.zipf(corpus.users.count)]
        if tweet.referencedTweets.isEmpty && random.chance(0.15) && mentioned.id != author.id {
            builder.addUser(mentioned)
            text.append(" ")
            let start = text.count
            text.append("@\(mentioned.username)")
            tweet.entities.mentions.append(
                Mention(start: start, end: text.count, username: mentioned.username, id: mentioned.id))
        }
        let hashtagCount = random.chance(0.3) ? 1 + random.below(3) : 0
        for _ in 0..<hashtagCount {
            text.append(" ")
            addHashtag(to: &tweet, text: &text)
        }
        if let quoted = tweet.quotedID {
            let handle = builder.page.includedTweets.last?.authorID.flatMap(user(withID:))?.username ?? "i"
            addLink(to: &tweet, text: &text, expanded: "https://twitter.com/\(handle)/status/\(quoted)")
        } else if random.chance(0.15) {
            addLink(
                to: &tweet, text: &text,
                expanded: "https://\(random.pick(DemoVocabulary.domains))/\(random.below(100_000))")
        }
        if random.chance(0.22) {
            text.append(" ")
            text.append(random.pick(DemoVocabulary.emoji))
        }
        if random.chance(0.03) {
            // Escaped as the API delivers it; kept after every entity so offsets read the same escaped or not.
            text.append(random.chance(0.5) ? " Q&amp;A" : " &lt;3")
        }
        if random.chance(0.08) {
            let key = "3_\(id.rawValue &+ 1)"
            tweet.mediaKeys = [key]
            builder.addMedia(
                Media(
                    mediaKey: key, kind: .photo, url: "https://pbs.twimg.com/media/demo\(id.rawValue % 1_000_000).jpg",
                    width: 1200, height: 800 + 100 * random.below(5),
                    altText: random.chance(0.4) ? "a generated photo" : nil))
        }
        tweet.text = text.text
        tweet.metrics = makeMetrics(followers: author.metrics?.followers ?? 10)
        remember(tweet)
        return tweet
    }

    private mutating func makeRetweet(
        id: TweetID, milliseconds: Int64, author: User, original: Tweet,
        into builder: inout PageBuilder
    ) -> Tweet {
        let originalAuthor = original.authorID.flatMap(user(withID:))
        if let originalAuthor { builder.addUser(originalAuthor) }
        builder.addIncluded(original)
        let handle = originalAuthor?.username ?? "unknown"
        // The API's retweet text: "RT @handle: " and the original, cut to 140 characters with an ellipsis.
        var text = "RT @\(handle): " + original.text
        if text.count > 140 { text = String(text.prefix(139)) + "…" }
        var tweet = Tweet(
            id: id, text: text, authorID: author.id,
            createdAt: Date(timeIntervalSince1970: Double(milliseconds) / 1000), lang: original.lang,
            conversationID: id, referencedTweets: [ReferencedTweet(kind: .retweeted, id: original.id)],
            metrics: TweetMetrics(retweets: original.metrics?.retweets ?? 0), source: DemoCorpus.sourceLabel)
        tweet.entities.mentions = [
            Mention(start: 3, end: 4 + handle.unicodeScalars.count, username: handle, id: originalAuthor?.id)
        ]
        return tweet
    }

    private mutating func appendSentence(_ language: DemoVocabulary.Language, to text: inout TextBuilder) {
        let length = 4 + random.below(language.joinsWithoutSpaces ? 6 : 14)
        var previous = -1
        for position in 0..<length {
            var word: String
            if random.chance(0.00005) {
                word = random.pick(DemoVocabulary.rareWords)
            } else {
                // Zipf alone over a small vocabulary repeats the top word too often; never twice in a row.
                var rank = random.chance(0.7) ? random.zipf(language.words.count) : random.below(language.words.count)
                if rank == previous {
                    rank = (rank + 1 + random.below(language.words.count - 1)) % language.words.count
                }
                previous = rank
                word = language.words[rank]
            }
            if position == 0 && !language.joinsWithoutSpaces, let first = word.first, first.isLowercase {
                word = first.uppercased() + word.dropFirst()
            }
            if position > 0 && !language.joinsWithoutSpaces { text.append(" ") }
            text.append(word)
        }
        text.append(random.pick(language.sentenceEnd))
    }

    private mutating func addHashtag(to tweet: inout Tweet, text: inout TextBuilder) {
        var tag = DemoVocabulary.hashtags[random.zipf(DemoVocabulary.hashtags.count)]
        if tweet.entities.hashtags.contains(where: { $0.tag == tag }) { tag = random.pick(DemoVocabulary.hashtags) }
        let start = text.count
        text.append("#")
        text.append(tag)
        tweet.entities.hashtags.append(Hashtag(start: start, end: text.count, tag: tag))
    }

    private mutating func addLink(to tweet: inout Tweet, text: inout TextBuilder, expanded: String) {
        let short = "https://t.co/" + shortCode()
        text.append(" ")
        let start = text.count
        text.append(short)
        let display = expanded.hasPrefix("https://") ? String(expanded.dropFirst(8)) : expanded
        tweet.entities.urls.append(
            URLEntity(
                start: start, end: text.count, url: short, expandedURL: expanded,
                displayURL: display.count > 28 ? String(display.prefix(27)) + "…" : display))
    }

    private mutating func shortCode() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".unicodeScalars)
        var code = String.UnicodeScalarView()
        for _ in 0..<10 { code.append(alphabet[random.below(alphabet.count)]) }
        return String(code)
    }

    private mutating func makeMetrics(followers: Int) -> TweetMetrics {
        // Heavy-tailed: most tweets get nothing, a few take off; bigger accounts get more.
        let reach = log10(Double(max(followers, 10)))
        let likes = Int(pow(10, reach * pow(random.unit(), 2.5))) - 1
        let retweets = likes / (3 + random.below(8))
        return TweetMetrics(
            retweets: retweets, replies: likes / (5 + random.below(15)), likes: likes,
            quotes: retweets / (2 + random.below(10)), impressions: likes * (40 + random.below(80)) + random.below(200),
            bookmarks: likes / (10 + random.below(30)))
    }

    private mutating func pickRecent() -> Tweet? {
        guard !recent.isEmpty else { return nil }
        // Skewed towards the newest, as conversations are.
        let back = random.zipf(recent.count)
        let slot = (recentNext - 1 - back + recent.count * 2) % recent.count
        return recent[slot]
    }

    private mutating func remember(_ tweet: Tweet) {
        if recent.count < Self.recentCapacity {
            recent.append(tweet)
            recentNext = recent.count % Self.recentCapacity
        } else {
            recent[recentNext] = tweet
            recentNext = (recentNext + 1) % Self.recentCapacity
        }
    }

    /// Users are laid out by index in their id, so this is arithmetic rather than a lookup table.
    private func user(withID id: UserID) -> User? {
        guard id.rawValue >= 100_000_000 else { return nil }
        let index = Int((id.rawValue - 100_000_000) / 7919)
        return index < corpus.users.count ? corpus.users[index] : nil
    }
}

/// Builds tweet text while counting code points, the unit entity offsets use.
struct TextBuilder {
    var text = ""
    var count = 0

    mutating func append(_ piece: String) {
        text += piece
        // Code points are the UTF-8 bytes that do not continue a sequence; cheaper than walking unicodeScalars.
        count += piece.utf8.reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
    }
}
