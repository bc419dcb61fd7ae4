import Foundation
import Testing

@testable import TweetKit

@Suite struct APIResponseDecoderTests {
    @Test func searchPageDecodesEveryField() throws {
        let page = try APIResponseDecoder.decodePage(from: Fixtures.searchPage.data)
        #expect(page.tweets.map(\.id) == [1460323737035677698, 1460323737035677697])
        #expect(page.newestID == 1460323737035677698)
        #expect(page.oldestID == 1460323737035677697)
        #expect(page.resultCount == 2)
        #expect(page.nextToken == "b26v89c19zqg8o3fpdy")
        #expect(page.previousToken == nil)
        #expect(page.errors.isEmpty)

        let reply = page.tweets[0]
        #expect(reply.authorID == 2244994945)
        #expect(reply.conversationID == 1460300000000000000)
        #expect(reply.inReplyToUserID == 783214)
        #expect(reply.repliedToID == 1460300000000000000)
        #expect(reply.lang == "en")
        #expect(reply.source == "Twitter Web App")
        #expect(reply.possiblySensitive == false)
        #expect(reply.createdAt == Date(timeIntervalSince1970: 1_636_999_200))
        #expect(
            reply.metrics == TweetMetrics(retweets: 2, replies: 1, likes: 14, quotes: 0, impressions: 900, bookmarks: 3)
        )
        #expect(reply.entities.hashtags == [Hashtag(start: 2, end: 7, tag: "food")])
        #expect(reply.entities.mentions == [Mention(start: 8, end: 12, username: "bob", id: 783214)])
        #expect(reply.entities.urls.first?.expandedURL == "https://example.com/fish")
        #expect(reply.entities.urls.first?.displayURL == "example.com/fish")
        #expect(reply.mediaKeys == ["3_1460323730000000000"])

        #expect(page.users.map(\.username) == ["alice", "bob"])
        #expect(page.includedTweets.map(\.id) == [1460000000000000001])
        #expect(
            page.media == [
                Media(
                    mediaKey: "3_1460323730000000000", kind: .photo, url: "https://pbs.twimg.com/media/x.jpg",
                    width: 800, height: 600, altText: "a plate"),
                Media(
                    mediaKey: "7_1", kind: .video, previewImageURL: "https://pbs.twimg.com/v.jpg", width: 1280,
                    height: 720),
                Media(mediaKey: "16_2", kind: .animatedGIF, previewImageURL: "https://pbs.twimg.com/g.jpg"),
            ], "places, polls and unknown media kinds are ignored")
    }

    @Test func textStaysEscapedAndDisplayTextDecodesEntities() throws {
        let page = try APIResponseDecoder.decodePage(from: Fixtures.searchPage.data)
        #expect(page.tweets[0].text.hasSuffix("Fish &amp; chips &lt;3"))
        #expect(page.tweets[0].displayText(in: page).hasSuffix("Fish & chips <3"))
    }

    @Test func surrogatePairEscapeBecomesOneCodePointAndEntityOffsetsCountCodePoints() throws {
        let page = try APIResponseDecoder.decodePage(from: Fixtures.searchPage.data)
        let tweet = page.tweets[0]
        #expect(tweet.text.hasPrefix("😀 #food"))
        let scalars = Array(tweet.text.unicodeScalars)
        func slice(_ start: Int, _ end: Int) -> String {
            var result = String.UnicodeScalarView()
            result.append(contentsOf: scalars[start..<end])
            return String(result)
        }
        let hashtag = tweet.entities.hashtags[0]
        #expect(slice(hashtag.start, hashtag.end) == "#food")
        let mention = tweet.entities.mentions[0]
        #expect(slice(mention.start, mention.end) == "@bob")
        let url = tweet.entities.urls[0]
        #expect(slice(url.start, url.end) == "https://t.co/abc")
    }

    @Test func retweetDisplaysTheOriginalsFullText() throws {
        let page = try APIResponseDecoder.decodePage(from: Fixtures.searchPage.data)
        let retweet = page.tweets[1]
        #expect(retweet.retweetedID == 1460000000000000001)
        #expect(retweet.text.hasSuffix("…"))
        #expect(
            retweet.displayText(in: page)
                == "RT @alice: This original is much longer than what a retweet's own text keeps, because the API truncates it & adds an ellipsis at the end."
        )
        // Without the original, the truncated text is all there is.
        let bare = Page(tweets: [retweet])
        #expect(retweet.displayText(in: bare) == retweet.text)
    }

    @Test func displayTextCanExpandLinks() throws {
        let page = try APIResponseDecoder.decodePage(from: Fixtures.searchPage.data)
        let text = page.tweets[0].displayText(in: page, expandingLinks: true)
        #expect(text == "😀 #food @bob https://example.com/fish Fish & chips <3")
        #expect(page.tweets[0].displayText(in: page, expandingLinks: false) == page.tweets[0].displayText(in: page))
    }

    @Test func usersUpgradeHTTPImagesAndTreatEmptyURLAsUnset() throws {
        let page = try APIResponseDecoder.decodePage(from: Fixtures.searchPage.data)
        let alice = try #require(page.user(2244994945))
        #expect(alice.profileImageURL == "https://pbs.twimg.com/profile_images/1/a_normal.jpg")
        #expect(alice.url == nil)
        #expect(alice.verified)
        #expect(alice.description == "Fish fan")
        #expect(alice.metrics == UserMetrics(followers: 10, following: 20, tweets: 30, listed: 4))
        #expect(alice.createdAt == TwitterDate.parseISO8601("2013-12-14T04:35:55Z"))
        #expect(page.user(783214)?.url == "https://bob.example")
    }

    @Test func emptyResultHasNoDataAndIsNotAnError() throws {
        let page = try APIResponseDecoder.decodePage(from: Fixtures.emptyPage.data)
        #expect(page.tweets.isEmpty)
        #expect(page.resultCount == 0)
        #expect(page.nextToken == nil)
        #expect(page.newestID == nil)
    }

    @Test func partialErrorsInA200AccompanyTheData() throws {
        let page = try APIResponseDecoder.decodePage(from: Fixtures.pageWithPartialErrors.data)
        #expect(page.tweets.map(\.id) == [20])
        #expect(page.tweets[0].quotedID == 21)
        #expect(
            page.errors == [
                PartialError(
                    value: "21", detail: "Could not find tweet with referenced_tweets.id: [21].",
                    title: "Not Found Error",
                    resourceType: "tweet", parameter: "referenced_tweets.id", resourceID: "21",
                    type: "https://api.twitter.com/2/problems/resource-not-found", section: "includes")
            ])
    }

    @Test func singleTweetLookupIsAPageOfOne() throws {
        let page = try APIResponseDecoder.decodePage(from: Fixtures.singleTweet.data)
        #expect(page.tweets.map(\.id) == [1212092628029698048])
        #expect(page.user(2244994945)?.username == "TwitterDev")
        #expect(page.resultCount == nil)
    }

    @Test func lookupWithOnlyErrorsIsAnEmptyPageWithErrors() throws {
        let page = try APIResponseDecoder.decodePage(from: Fixtures.onlyErrors.data)
        #expect(page.tweets.isEmpty)
        #expect(page.errors.map(\.resourceID) == ["1", "2"])
        #expect(page.errors.allSatisfy { $0.type?.hasSuffix("/resource-not-found") == true })
    }

    @Test func timelinePageKeepsPreviousToken() throws {
        let page = try APIResponseDecoder.decodePage(from: Fixtures.timelinePage.data)
        #expect(page.tweets.map(\.text) == ["one", "two"])
        #expect(page.previousToken == "77qpymm88g5h9vqklux")
        #expect(page.nextToken == "7140dibdnow9c7btw3w29grvxfcgvpb9n9coehpk7xz5i")
    }

    @Test func userLookupFoundAndSuspended() throws {
        let found = try APIResponseDecoder.decodeUser(from: Fixtures.userFound.data)
        #expect(found.user?.username == "XDevelopers")
        #expect(found.user?.url == nil)
        #expect(found.user?.profileImageURL == "https://pbs.twimg.com/p.jpg")
        #expect(found.user?.metrics?.listed == 8)
        #expect(found.errors.isEmpty)

        let suspended = try APIResponseDecoder.decodeUser(from: Fixtures.userSuspended.data)
        #expect(suspended.user == nil)
        #expect(suspended.errors.first?.title == "Forbidden")
        #expect(suspended.errors.first?.value == "gone_user")
    }

    @Test func badBodiesThrowProblemsThatSayWhatWasWrong() {
        #expect(throws: DecodingProblem.self) { try APIResponseDecoder.decodePage(from: Data()) }
        do {
            _ = try APIResponseDecoder.decodePage(from: Fixtures.problemDocument.data)
            Issue.record("a problem document decoded as a page")
        } catch let problem as DecodingProblem {
            #expect(problem.message.contains("Unauthorized"))
        } catch {
            Issue.record("unexpected error \(error)")
        }
        let errorBodies = [
            #"{"errors":[{"code":88,"message":"Rate limit exceeded"}]}"#: "Rate limit exceeded (code 88)",
            #"{"errors":[{"parameters":{"query":["x"]},"message":"bad"}],"title":"Invalid Request","detail":"One or more parameters to your request was invalid.","type":"https://api.twitter.com/2/problems/invalid-request"}"#:
                "Invalid Request",
            #"{"title":"UsageCapExceeded","type":"https://api.twitter.com/2/problems/usage-capped","period":"Monthly","detail":"Usage cap exceeded: Monthly product cap"}"#:
                "Usage cap exceeded",
            "<html><body>Not Found</body></html>": "not valid JSON",
        ]
        for (body, expected) in errorBodies {
            do {
                _ = try APIResponseDecoder.decodePage(from: body.data)
                Issue.record("an error body decoded as a page: \(body)")
            } catch let problem as DecodingProblem {
                #expect(problem.message.contains(expected), "\(problem.message)")
            } catch {
                Issue.record("unexpected error \(error)")
            }
        }
        do {
            _ = try APIResponseDecoder.decodePage(from: #"{"data":[{"id":"x1","text":"t"}]}"#.data)
            Issue.record("a non-numeric id decoded")
        } catch let problem as DecodingProblem {
            #expect(problem.message.contains("data[0].id"))
        } catch {
            Issue.record("unexpected error \(error)")
        }
        do {
            _ = try APIResponseDecoder.decodePage(from: #"{"data":[{"id":"1","text":"t"},]}"#.data)
            Issue.record("a trailing comma parsed")
        } catch let problem as DecodingProblem {
            #expect(problem.column == 32)
            #expect(problem.description.contains("column 32"))
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func backwardsEntitySpansAreDropped() throws {
        let body =
            ##"{"data":[{"id":"5","text":"#a #b","entities":{"hashtags":[{"start":3,"end":1,"tag":"a"},{"start":-1,"end":2,"tag":"x"},{"start":3,"end":5,"tag":"b"}]}}]}"##
        let fast = try APIResponseDecoder.decodePage(from: body.data)
        let tree = try APIResponseDecoder.decodePage(from: try JSONParser.parse(body.data))
        #expect(fast.tweets[0].entities.hashtags == [Hashtag(start: 3, end: 5, tag: "b")])
        #expect(tree == fast)
    }

    @Test func longPostsUseNoteTweetText() throws {
        let body = #"{"data":{"id":"5","text":"short…","note_tweet":{"text":"the whole long post"}}}"#
        #expect(try APIResponseDecoder.decodePage(from: body.data).tweets[0].text == "the whole long post")
    }
}
