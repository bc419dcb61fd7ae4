import Foundation

/// twarc2 page lines written from kept originals: each object as it came, each tweet with the `__twarc` block of the
/// page it came in.
///
/// A page whose tweets share one `__twarc` block (an API page, or a store page of tweets from one fetch) is one line
/// with the page's includes and, when kept, its `meta` as sent. A store page mixing fetches is split into runs of
/// tweets with the same block, one line each, with the includes each run refers to and a `meta` computed for it. A
/// tweet from the filtered stream (its block names the rules it matched) is a line of the stream's own shape: `data`
/// one object, no `meta`.
enum OriginalPageLines {
    static func write(_ page: Page, metadata: TwarcMetadata?, into writer: inout JSONWriter) {
        var runs: [[Tweet]] = []
        var previous: OriginalJSON??
        for tweet in page.tweets {
            let twarc = page.originals.twarc(for: tweet.id)
            if let previous, previous == twarc {
                runs[runs.count - 1].append(tweet)
            } else {
                runs.append([tweet])
            }
            previous = .some(twarc)
        }
        if runs.count <= 1 {
            writeLine(
                page, twarc: page.tweets.first.flatMap { page.originals.twarc(for: $0.id) } ?? page.originals.twarc,
                keepMeta: true, metadata: metadata, into: &writer)
            return
        }
        for run in runs {
            writeLine(
                subpage(page, run), twarc: page.originals.twarc(for: run[0].id), keepMeta: false,
                metadata: metadata, into: &writer)
        }
    }

    /// The tweets of `run` with the includes they refer to.
    private static func subpage(_ page: Page, _ run: [Tweet]) -> Page {
        let runIDs = Set(run.map(\.id))
        var includedIDs = Set<TweetID>()
        for tweet in run { for reference in tweet.referencedTweets { includedIDs.insert(reference.id) } }
        let included = page.includedTweets.filter { includedIDs.contains($0.id) && !runIDs.contains($0.id) }
        var userIDs = Set<UserID>()
        var mediaKeys = Set<String>()
        var placeIDs = Set<String>()
        var pollIDs = Set<String>()
        for tweet in run + included {
            if let author = tweet.authorID { userIDs.insert(author) }
            if let replied = tweet.inReplyToUserID { userIDs.insert(replied) }
            for mention in tweet.entities.mentions { if let id = mention.id { userIDs.insert(id) } }
            mediaKeys.formUnion(tweet.mediaKeys)
            if let original = page.originals.tweets[tweet.id] {
                let (place, polls) = original.placeAndPolls
                if let place { placeIDs.insert(place) }
                pollIDs.formUnion(polls)
            }
        }
        var sub = Page(
            tweets: run, users: page.users.filter { userIDs.contains($0.id) }, includedTweets: included,
            media: page.media.filter { mediaKeys.contains($0.mediaKey) })
        sub.originals = page.originals
        sub.originals.places = page.originals.places.filter { placeIDs.contains($0.key) }
        sub.originals.polls = page.originals.polls.filter { pollIDs.contains($0.key) }
        sub.originals.meta = nil
        return sub
    }

    private static func writeLine(
        _ page: Page, twarc: OriginalJSON?, keepMeta: Bool, metadata: TwarcMetadata?, into writer: inout JSONWriter
    ) {
        let originals = page.originals
        // A stream line's block holds its `matching_rules` too, written before `__twarc` as twarc2 writes them.
        let (twarcBlock, matchingRules) = twarc.map(LineBlock.parts) ?? (nil, nil)
        // The filtered stream sends one tweet per line, as an object under `data` and without `meta`; its lines go
        // back out in that shape rather than as a search page's.
        let streamLine = matchingRules != nil && page.tweets.count == 1 && page.errors.isEmpty
        func writeTweet(_ tweet: Tweet, _ writer: inout JSONWriter) {
            if let original = originals.tweets[tweet.id] { writer.original(original) } else { writer.tweet(tweet) }
        }
        writer.raw("{")
        var needsComma = false
        func separate() {
            if needsComma { writer.raw(",") }
            needsComma = true
        }
        if streamLine {
            separate()
            writer.key("data")
            writeTweet(page.tweets[0], &writer)
        } else if !page.tweets.isEmpty {
            separate()
            writer.key("data")
            writeArray(page.tweets, into: &writer, writeTweet)
        }
        let places = originals.places.sorted { $0.key < $1.key }.map(\.value)
        let polls = originals.polls.sorted { $0.key < $1.key }.map(\.value)
        if !page.users.isEmpty || !page.includedTweets.isEmpty || !page.media.isEmpty || !places.isEmpty
            || !polls.isEmpty
        {
            separate()
            writer.key("includes")
            writer.raw("{")
            var first = true
            func member(_ name: StaticString, _ write: (inout JSONWriter) -> Void) {
                if !first { writer.raw(",") }
                first = false
                writer.key(name)
                write(&writer)
            }
            if !page.users.isEmpty {
                member("users") { writer in
                    writeArray(page.users, into: &writer) { user, writer in
                        if let original = originals.users[user.id] {
                            writer.original(original)
                        } else {
                            writer.user(user)
                        }
                    }
                }
            }
            if !page.includedTweets.isEmpty {
                member("tweets") { writer in
                    writeArray(page.includedTweets, into: &writer) { tweet, writer in
                        if let original = originals.tweets[tweet.id] {
                            writer.original(original)
                        } else {
                            writer.tweet(tweet)
                        }
                    }
                }
            }
            if !page.media.isEmpty {
                member("media") { writer in
                    writeArray(page.media, into: &writer) { media, writer in
                        if let original = originals.media[media.mediaKey] {
                            writer.original(original)
                        } else {
                            writer.media(media)
                        }
                    }
                }
            }
            if !places.isEmpty {
                member("places") { writer in writeArray(places, into: &writer) { $1.original($0) } }
            }
            if !polls.isEmpty {
                member("polls") { writer in writeArray(polls, into: &writer) { $1.original($0) } }
            }
            writer.raw("}")
        }
        if !page.errors.isEmpty {
            separate()
            writer.key("errors")
            writeArray(page.errors, into: &writer) { $1.partialError($0) }
        }
        if !streamLine {
            separate()
            writer.key("meta")
            if keepMeta, let meta = originals.meta {
                writer.original(meta)
            } else {
                writeMeta(page, into: &writer)
            }
        }
        if let matchingRules {
            separate()
            writer.key("matching_rules")
            writer.original(matchingRules)
        }
        if let twarcBlock {
            separate()
            writer.key("__twarc")
            writer.original(twarcBlock)
        } else if let metadata {
            separate()
            TwarcEncoding.twarcObject(metadata, into: &writer)
        }
        writer.raw("}\n")
    }

    private static func writeArray<Element>(
        _ items: [Element], into writer: inout JSONWriter, _ write: (Element, inout JSONWriter) -> Void
    ) {
        writer.raw("[")
        for (index, item) in items.enumerated() {
            if index > 0 { writer.raw(",") }
            write(item, &writer)
        }
        writer.raw("]")
    }

    /// `meta` for tweets regrouped from the store: the ids they span and their count, and the page's tokens.
    private static func writeMeta(_ page: Page, into writer: inout JSONWriter) {
        writer.raw("{")
        let ids = page.tweets.map(\.id)
        if let newest = ids.max() {
            writer.key("newest_id")
            writer.id(newest)
            writer.raw(",")
        }
        if let oldest = ids.min() {
            writer.key("oldest_id")
            writer.id(oldest)
            writer.raw(",")
        }
        writer.key("result_count")
        writer.int(page.tweets.count)
        if let next = page.nextToken {
            writer.raw(",")
            writer.key("next_token")
            writer.string(next)
        }
        writer.raw("}")
    }

    /// tweetsh's own `__twarc` block as a value, for tweets that came without one.
    static func twarcValue(_ metadata: TwarcMetadata?) -> JSONValue? {
        guard let metadata else { return nil }
        var writer = JSONWriter(capacity: 256)
        writer.raw("{")
        TwarcEncoding.twarcObject(metadata, into: &writer)
        writer.raw("}")
        return (try? JSONParser.parse(writer.data))?["__twarc"]
    }
}
