import Foundation

/// The hot path for API v2 pages (twarc2 raw lines, search responses): reads straight from the bytes into models.
///
/// It handles only the common shape (`data` an array or absent) and gives up, returning nil, on anything else or
/// on any problem at all; callers then decode through the `JSONValue` tree, which is the reference behaviour and
/// produces the error messages. Tests check both paths agree.
enum FastPageDecoder {
    typealias Scanner = JSONParser.Scanner

    /// The page, or nil when the tree path must decide (other shapes, bad input). `hasData` is false for a page
    /// without `data`.
    ///
    /// With `keepOriginals`, each object's bytes are kept in `page.originals` as they are read (see
    /// `OriginalsExtractor`, which does the same for the other shapes), saving a second pass over the line.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, keepOriginals: Bool = false) -> (page: Page, hasData: Bool)?
    {
        var scanner = Scanner(bytes: bytes)
        var page = Page()
        var sawData = false
        var sawMetaOrErrors = false
        var legacyErrors = false
        var matchingRules: OriginalJSON?
        do {
            try scanner.members { scanner, key in
                if key == "data" {
                    if try scanner.consumeNull() { return }
                    if scanner.peek() == UInt8(ascii: "{") {
                        // One tweet, as a lookup by id and every line of the filtered stream send it.
                        sawData = true
                        let start = scanner.mark
                        let tweet = try tweet(&scanner)
                        if keepOriginals { page.originals.tweets[tweet.id] = scanner.original(since: start) }
                        page.tweets.append(tweet)
                        return
                    }
                    guard scanner.peek() == UInt8(ascii: "[") else { throw Bail() }
                    sawData = true
                    try scanner.elements { scanner in
                        let start = scanner.mark
                        let tweet = try tweet(&scanner)
                        if keepOriginals { page.originals.tweets[tweet.id] = scanner.original(since: start) }
                        page.tweets.append(tweet)
                    }
                } else if key == "includes" {
                    try includes(&scanner, into: &page, keepOriginals: keepOriginals)
                } else if key == "meta" {
                    sawMetaOrErrors = true
                    let start = scanner.mark
                    try meta(&scanner, into: &page)
                    if keepOriginals { page.originals.meta = scanner.original(since: start) }
                } else if key == "__twarc" && keepOriginals {
                    let start = scanner.mark
                    try scanner.skipValue()
                    page.originals.twarc = scanner.original(since: start)
                } else if key == "matching_rules" && keepOriginals {
                    // A filtered stream's line (or twarc2's capture of one): kept with the tweet in its line block.
                    let start = scanner.mark
                    try scanner.skipValue()
                    matchingRules = scanner.original(since: start)
                } else if key == "errors" {
                    sawMetaOrErrors = true
                    let errors = try scanner.value(depth: 0)
                    legacyErrors = V2Objects.isLegacyErrorList(errors.array ?? [])
                    page.errors = V2Objects.partialErrors(errors)
                } else if key == "statuses" || key == "id" || key == "id_str" || key == "text" || key == "title" {
                    throw Bail()
                } else {
                    try scanner.skipValue()
                }
            }
            scanner.skipWhitespace()
            // An error response (v1.1-style errors and no data) is the tree decoder's to report.
            guard scanner.index == bytes.count, sawData || sawMetaOrErrors, sawData || !legacyErrors else { return nil }
        } catch {
            return nil
        }
        if matchingRules != nil {
            page.originals.twarc = LineBlock.block(twarc: page.originals.twarc, matchingRules: matchingRules)
        }
        return (page, sawData)
    }

    private struct Bail: Error {}

    static func tweet(_ scanner: inout Scanner) throws -> Tweet {
        try finish(try tweetObject(&scanner, collecting: false, depth: 0))
    }

    /// Objects a flattened tweet carries beside its own fields (`twarc2 flatten` merges them in).
    struct Embedded {
        var author: User?
        var replyUser: User?
        var attachmentMedia: [Media] = []
        var media: [Media] = []
        /// Expanded references (those with text), each with what it embeds in turn.
        var references: [(tweet: Tweet, embedded: Embedded)] = []
    }

    /// A tweet object's fields as read, before the checks that make it a `Tweet`.
    struct ParsedTweet {
        var tweet = Tweet(id: 0, text: "")
        var id: TweetID?
        var text: String?
        var sawText = false
        var noteText: String?
        var noteEntities: TweetEntities?
        /// `type`, present when the object is an item of a flattened `referenced_tweets`.
        var kind: ReferencedTweet.Kind?
        var embedded = Embedded()
    }

    static func finish(_ parsed: ParsedTweet) throws -> Tweet {
        guard let id = parsed.id, let text = parsed.noteText ?? parsed.text else { throw Bail() }
        var tweet = parsed.tweet
        tweet.id = id
        tweet.text = text
        if let noteEntities = parsed.noteEntities { tweet.entities = noteEntities }
        return tweet
    }

    /// Reads a tweet object. With `collecting`, the flattened form's embedded objects are kept too; at depth 0 the
    /// keys of other line shapes make it give up, as the tree decoder would pick another reading.
    static func tweetObject(_ scanner: inout Scanner, collecting: Bool, depth: Int) throws -> ParsedTweet {
        var parsed = ParsedTweet()
        try scanner.members { scanner, key in
            switch key.bytes.count == 0 ? (key.decoded?.count ?? 0) : key.bytes.count {
            case 2 where key == "id": parsed.id = try scanner.readID()
            case 4 where key == "text":
                parsed.sawText = true
                parsed.text = try scanner.readString()
            case 4 where key == "lang": parsed.tweet.lang = try scanner.readString()
            case 4 where key == "type":
                parsed.kind = try scanner.readString().flatMap(ReferencedTweet.Kind.init(rawValue:))
            case 4 where key == "data" && collecting && depth == 0: throw Bail()
            case 5 where key == "media" && collecting:
                try scanner.elements { scanner in
                    if let media = V2Objects.media(try scanner.value(depth: 0)) { parsed.embedded.media.append(media) }
                }
            case 6 where key == "source": parsed.tweet.source = try scanner.readString()
            case 6 where key == "author" && collecting: parsed.embedded.author = try user(&scanner)
            case 6 where key == "id_str" && collecting && depth == 0: throw Bail()
            case 8 where key == "entities": parsed.tweet.entities = try entities(&scanner)
            case 8 where key == "statuses" && collecting && depth == 0: throw Bail()
            case 9 where key == "author_id": parsed.tweet.authorID = try scanner.readID()
            case 10 where key == "created_at":
                if let created = try scanner.readString() { parsed.tweet.createdAt = TwitterDate.parse(created) }
            case 10 where key == "note_tweet":
                try scanner.members { scanner, key in
                    if key == "text" {
                        parsed.noteText = try scanner.readString()
                    } else if key == "entities" {
                        parsed.noteEntities = try entities(&scanner)
                    } else {
                        try scanner.skipValue()
                    }
                }
            case 11 where key == "attachments":
                try scanner.members { scanner, key in
                    if key == "media_keys" {
                        try scanner.elements { scanner in
                            if let mediaKey = try scanner.readString() { parsed.tweet.mediaKeys.append(mediaKey) }
                        }
                    } else if key == "media" && collecting {
                        try scanner.elements { scanner in
                            if let media = V2Objects.media(try scanner.value(depth: 0)) {
                                parsed.embedded.attachmentMedia.append(media)
                            }
                        }
                    } else {
                        try scanner.skipValue()
                    }
                }
            case 14 where key == "public_metrics": parsed.tweet.metrics = try metrics(&scanner)
            case 15 where key == "conversation_id": parsed.tweet.conversationID = try scanner.readID()
            case 16 where key == "in_reply_to_user" && collecting: parsed.embedded.replyUser = try user(&scanner)
            case 17 where key == "referenced_tweets":
                try scanner.elements { scanner in
                    let item = try tweetObject(&scanner, collecting: collecting, depth: depth + 1)
                    if let kind = item.kind, let id = item.id {
                        parsed.tweet.referencedTweets.append(ReferencedTweet(kind: kind, id: id))
                    }
                    if collecting && depth == 0 && item.sawText {
                        parsed.embedded.references.append((try finish(item), item.embedded))
                    }
                }
            case 18 where key == "possibly_sensitive": parsed.tweet.possiblySensitive = try scanner.readBool()
            case 19 where key == "in_reply_to_user_id": parsed.tweet.inReplyToUserID = try scanner.readID()
            default: try scanner.skipValue()
            }
        }
        return parsed
    }

    /// A flattened tweet line (`twarc2 flatten`), or nil when the tree path must decide.
    static func decodeFlattened(_ bytes: UnsafeBufferPointer<UInt8>) -> Page? {
        var scanner = Scanner(bytes: bytes)
        do {
            let parsed = try tweetObject(&scanner, collecting: true, depth: 0)
            scanner.skipWhitespace()
            guard scanner.index == bytes.count, parsed.sawText, parsed.id != nil else { return nil }
            // Same order as the tree decoder: the tweet and its embeds, then each expanded reference and its embeds.
            var builder = PageBuilder()
            builder.addMain(try finish(parsed))
            func addEmbedded(_ embedded: Embedded) {
                if let author = embedded.author { builder.addUser(author) }
                if let replyUser = embedded.replyUser { builder.addUser(replyUser) }
                for media in embedded.attachmentMedia + embedded.media { builder.addMedia(media) }
            }
            addEmbedded(parsed.embedded)
            for reference in parsed.embedded.references {
                builder.addIncluded(reference.tweet)
                addEmbedded(reference.embedded)
            }
            return builder.page
        } catch {
            return nil
        }
    }

    static func metrics(_ scanner: inout Scanner) throws -> TweetMetrics {
        var metrics = TweetMetrics()
        try scanner.members { scanner, key in
            if key == "retweet_count" {
                metrics.retweets = try scanner.readInt() ?? 0
            } else if key == "reply_count" {
                metrics.replies = try scanner.readInt() ?? 0
            } else if key == "like_count" {
                metrics.likes = try scanner.readInt() ?? 0
            } else if key == "quote_count" {
                metrics.quotes = try scanner.readInt() ?? 0
            } else if key == "impression_count" {
                metrics.impressions = try scanner.readInt()
            } else if key == "bookmark_count" {
                metrics.bookmarks = try scanner.readInt()
            } else {
                try scanner.skipValue()
            }
        }
        return metrics
    }

    static func entities(_ scanner: inout Scanner) throws -> TweetEntities {
        var entities = TweetEntities()
        try scanner.members { scanner, key in
            if key == "hashtags" || key == "cashtags" {
                let isHashtag = key == "hashtags"
                try scanner.elements { scanner in
                    var start: Int?
                    var end: Int?
                    var tag: String?
                    try scanner.members { scanner, key in
                        if key == "start" {
                            start = try scanner.readInt()
                        } else if key == "end" {
                            end = try scanner.readInt()
                        } else if key == "tag" {
                            tag = try scanner.readString()
                        } else {
                            try scanner.skipValue()
                        }
                    }
                    guard let start, let end, 0 <= start, start <= end, let tag else { return }
                    if isHashtag {
                        entities.hashtags.append(Hashtag(start: start, end: end, tag: tag))
                    } else {
                        entities.cashtags.append(Hashtag(start: start, end: end, tag: tag))
                    }
                }
            } else if key == "mentions" {
                try scanner.elements { scanner in
                    var start: Int?
                    var end: Int?
                    var username: String?
                    var id: UserID?
                    try scanner.members { scanner, key in
                        if key == "start" {
                            start = try scanner.readInt()
                        } else if key == "end" {
                            end = try scanner.readInt()
                        } else if key == "username" {
                            username = try scanner.readString()
                        } else if key == "id" {
                            id = try scanner.readID()
                        } else {
                            try scanner.skipValue()
                        }
                    }
                    guard let start, let end, 0 <= start, start <= end, let username else { return }
                    entities.mentions.append(Mention(start: start, end: end, username: username, id: id))
                }
            } else if key == "urls" {
                try scanner.elements { scanner in
                    var start: Int?
                    var end: Int?
                    var url: String?
                    var expanded: String?
                    var display: String?
                    try scanner.members { scanner, key in
                        if key == "start" {
                            start = try scanner.readInt()
                        } else if key == "end" {
                            end = try scanner.readInt()
                        } else if key == "url" {
                            url = try scanner.readString()
                        } else if key == "expanded_url" {
                            expanded = try scanner.readString()
                        } else if key == "display_url" {
                            display = try scanner.readString()
                        } else {
                            try scanner.skipValue()
                        }
                    }
                    guard let start, let end, 0 <= start, start <= end, let url else { return }
                    entities.urls.append(
                        URLEntity(start: start, end: end, url: url, expandedURL: expanded, displayURL: display))
                }
            } else {
                try scanner.skipValue()
            }
        }
        return entities
    }

    static func user(_ scanner: inout Scanner) throws -> User {
        var id: UserID?
        var username: String?
        var user = User(id: 0, username: "", name: "")
        var name: String?
        try scanner.members { scanner, key in
            if key == "id" {
                id = try scanner.readID()
            } else if key == "username" {
                username = try scanner.readString()
            } else if key == "name" {
                name = try scanner.readString()
            } else if key == "profile_image_url" {
                user.profileImageURL = V2Objects.secureURL(try scanner.readString())
            } else if key == "verified" {
                user.verified = try scanner.readBool() ?? false
            } else if key == "description" {
                user.description = try scanner.readString()
            } else if key == "location" {
                user.location = try scanner.readString()
            } else if key == "created_at" {
                user.createdAt = try scanner.readString().flatMap(TwitterDate.parse)
            } else if key == "protected" {
                user.protected = try scanner.readBool() ?? false
            } else if key == "url" {
                user.url = V2Objects.nonEmpty(try scanner.readString())
            } else if key == "public_metrics" {
                var metrics = UserMetrics()
                try scanner.members { scanner, key in
                    if key == "followers_count" {
                        metrics.followers = try scanner.readInt() ?? 0
                    } else if key == "following_count" {
                        metrics.following = try scanner.readInt() ?? 0
                    } else if key == "tweet_count" {
                        metrics.tweets = try scanner.readInt() ?? 0
                    } else if key == "listed_count" {
                        metrics.listed = try scanner.readInt() ?? 0
                    } else {
                        try scanner.skipValue()
                    }
                }
                user.metrics = metrics
            } else {
                try scanner.skipValue()
            }
        }
        guard let id, let username else { throw Bail() }
        user.id = id
        user.username = username
        user.name = name ?? username
        return user
    }

    static func includes(_ scanner: inout Scanner, into page: inout Page, keepOriginals: Bool = false) throws {
        try scanner.members { scanner, key in
            if key == "users" {
                try scanner.elements { scanner in
                    let start = scanner.mark
                    let user = try user(&scanner)
                    if keepOriginals { page.originals.users[user.id] = scanner.original(since: start) }
                    page.users.append(user)
                }
            } else if key == "tweets" {
                let known = keepOriginals ? KnownResults.current : nil
                try scanner.elements { scanner in
                    // A copy of a result this import already stored, or of one of this page's results, changes
                    // nothing in the store (see `KnownResults`).
                    let leading = known == nil ? nil : scanner.leadingID()
                    let ofPageResult = leading.map { id in page.tweets.contains { $0.id.rawValue == id } }
                    if let known, let leading, ofPageResult == true || known.contains(leading) {
                        try scanner.skipValue()
                        return
                    }
                    let start = scanner.mark
                    let tweet = try tweet(&scanner)
                    // One original per id: a result's own, when the page also includes a copy of it. (The answer
                    // above holds unless the object names two ids, of which the decoder keeps the last.)
                    let isPageResult =
                        leading == tweet.id.rawValue
                        ? ofPageResult == true : page.tweets.contains { $0.id == tweet.id }
                    if keepOriginals, !isPageResult {
                        page.originals.tweets[tweet.id] = scanner.original(since: start)
                    }
                    page.includedTweets.append(tweet)
                }
            } else if key == "media" {
                // Media are few and optional; the tree reader's rules (unknown kinds dropped) apply.
                try scanner.elements { scanner in
                    let start = scanner.mark
                    let value = try scanner.value(depth: 0)
                    if keepOriginals, let key = value["media_key"]?.string {
                        page.originals.media[key] = scanner.original(since: start)
                    }
                    if let media = V2Objects.media(value) { page.media.append(media) }
                }
            } else if keepOriginals && (key == "places" || key == "polls") {
                let isPlace = key == "places"
                try scanner.elements { scanner in
                    let (original, id) = try OriginalsExtractor.keyedSlice(&scanner, key: "id")
                    guard let id else { return }
                    if isPlace { page.originals.places[id] = original } else { page.originals.polls[id] = original }
                }
            } else {
                try scanner.skipValue()
            }
        }
    }

    static func meta(_ scanner: inout Scanner, into page: inout Page) throws {
        var next: String?
        var pagination: String?
        try scanner.members { scanner, key in
            if key == "newest_id" {
                page.newestID = try scanner.readID()
            } else if key == "oldest_id" {
                page.oldestID = try scanner.readID()
            } else if key == "result_count" {
                page.resultCount = try scanner.readInt()
            } else if key == "next_token" {
                next = try scanner.readString()
            } else if key == "pagination_token" {
                pagination = try scanner.readString()
            } else if key == "previous_token" {
                page.previousToken = try scanner.readString()
            } else {
                try scanner.skipValue()
            }
        }
        page.nextToken = next ?? pagination
    }
}
