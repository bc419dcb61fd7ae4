import Foundation

/// API responses written by hand in the shapes of the contract (docs/x-api-v2-contract.md), so no test needs the service.
enum Fixtures {
    /// A search page: an HTML-escaped reply with an emoji sent as a surrogate pair, a retweet whose text is truncated,
    /// includes with users (one with `url: ""` and an http avatar), the retweeted original and a photo.
    static let searchPage = #"""
        {"data":[
          {"id":"1460323737035677698","text":"\ud83d\ude00 #food @bob https://t.co/abc Fish &amp; chips &lt;3",
           "author_id":"2244994945","conversation_id":"1460300000000000000","created_at":"2021-11-15T18:00:00.000Z",
           "lang":"en","in_reply_to_user_id":"783214","possibly_sensitive":false,"source":"Twitter Web App",
           "edit_history_tweet_ids":["1460323737035677698"],
           "referenced_tweets":[{"type":"replied_to","id":"1460300000000000000"}],
           "public_metrics":{"retweet_count":2,"reply_count":1,"like_count":14,"quote_count":0,"impression_count":900,"bookmark_count":3},
           "entities":{"hashtags":[{"start":2,"end":7,"tag":"food"}],
                       "mentions":[{"start":8,"end":12,"username":"bob","id":"783214"}],
                       "urls":[{"start":13,"end":29,"url":"https://t.co/abc","expanded_url":"https://example.com/fish","display_url":"example.com/fish"}]},
           "attachments":{"media_keys":["3_1460323730000000000"]},"reply_settings":"everyone",
           "geo":{"place_id":"01a9a39529b27f36"}},
          {"id":"1460323737035677697","text":"RT @alice: This original is much longer than what a retweet's own text keeps, because the API trunc…",
           "author_id":"783214","conversation_id":"1460323737035677697","created_at":"2021-11-15T17:59:59.000Z","lang":"en",
           "referenced_tweets":[{"type":"retweeted","id":"1460000000000000001"}]}
        ],
        "includes":{
          "users":[
            {"id":"2244994945","username":"alice","name":"Alice A.","url":"","verified":true,
             "profile_image_url":"http://pbs.twimg.com/profile_images/1/a_normal.jpg","description":"Fish fan",
             "created_at":"2013-12-14T04:35:55.000Z","protected":false,
             "public_metrics":{"followers_count":10,"following_count":20,"tweet_count":30,"listed_count":4}},
            {"id":"783214","username":"bob","name":"Bob","url":"https://bob.example","profile_image_url":"https://pbs.twimg.com/b.jpg"}
          ],
          "tweets":[
            {"id":"1460000000000000001","text":"This original is much longer than what a retweet's own text keeps, because the API truncates it &amp; adds an ellipsis at the end.",
             "author_id":"2244994945","created_at":"2021-11-14T10:00:00.000Z","lang":"en"}
          ],
          "media":[{"media_key":"3_1460323730000000000","type":"photo","url":"http://pbs.twimg.com/media/x.jpg","width":800,"height":600,"alt_text":"a plate"},
                   {"media_key":"7_1","type":"video","preview_image_url":"https://pbs.twimg.com/v.jpg","width":1280,"height":720},
                   {"media_key":"16_2","type":"animated_gif","preview_image_url":"https://pbs.twimg.com/g.jpg"},
                   {"media_key":"99_3","type":"hologram"}],
          "places":[{"id":"01a9a39529b27f36","full_name":"Manhattan, NY"}],
          "polls":[{"id":"1199786642468413448","options":[{"position":1,"label":"yes","votes":1}]}]
        },
        "meta":{"newest_id":"1460323737035677698","oldest_id":"1460323737035677697","result_count":2,"next_token":"b26v89c19zqg8o3fpdy"}}
        """#

    static let emptyPage = #"{"meta":{"result_count":0}}"#

    static let pageWithPartialErrors = #"""
        {"data":[{"id":"20","text":"hello","author_id":"12","referenced_tweets":[{"type":"quoted","id":"21"}]}],
         "errors":[{"value":"21","detail":"Could not find tweet with referenced_tweets.id: [21].","title":"Not Found Error",
                    "resource_type":"tweet","parameter":"referenced_tweets.id","resource_id":"21",
                    "type":"https://api.twitter.com/2/problems/resource-not-found","section":"includes"}],
         "meta":{"result_count":1,"newest_id":"20","oldest_id":"20"}}
        """#

    static let singleTweet = #"""
        {"data":{"id":"1212092628029698048","text":"We believe the best future version of our API will come from building it with YOU.",
                 "edit_history_tweet_ids":["1212092628029698048"],"author_id":"2244994945"},
         "includes":{"users":[{"id":"2244994945","name":"Twitter Dev","username":"TwitterDev"}]}}
        """#

    static let onlyErrors = #"""
        {"errors":[{"value":"1","detail":"Could not find tweet with ids: [1].","title":"Not Found Error","resource_type":"tweet",
                    "parameter":"ids","resource_id":"1","type":"https://api.twitter.com/2/problems/resource-not-found"},
                   {"value":"2","detail":"Could not find tweet with ids: [2].","title":"Not Found Error","resource_type":"tweet",
                    "parameter":"ids","resource_id":"2","type":"https://api.twitter.com/2/problems/resource-not-found"}]}
        """#

    static let timelinePage = #"""
        {"data":[{"id":"1338971066773905408","text":"one"},{"id":"1338923691497959425","text":"two"}],
         "meta":{"oldest_id":"1338923691497959425","newest_id":"1338971066773905408","result_count":2,
                 "next_token":"7140dibdnow9c7btw3w29grvxfcgvpb9n9coehpk7xz5i","previous_token":"77qpymm88g5h9vqklux"}}
        """#

    static let userFound = #"""
        {"data":{"id":"2244994945","name":"X Dev","username":"XDevelopers","url":"","profile_image_url":"http://pbs.twimg.com/p.jpg",
                 "verified":false,"protected":false,"public_metrics":{"followers_count":5,"following_count":6,"tweet_count":7,"listed_count":8}}}
        """#

    static let userSuspended = #"""
        {"errors":[{"value":"gone_user","detail":"User has been suspended: [gone_user].","title":"Forbidden","resource_type":"user",
                    "parameter":"username","resource_id":"gone_user","type":"https://api.twitter.com/2/problems/resource-not-found"}]}
        """#

    static let problemDocument = #"{"title":"Unauthorized","type":"about:blank","status":401,"detail":"Unauthorized"}"#

    /// v1.1 search/tweets.json in extended mode: `id` numbers too big for a Double, a retweet with its original.
    static let v1Search = #"""
        {"statuses":[
          {"created_at":"Fri Jul 12 23:40:37 +0000 2019","id":1149812345678901234,"id_str":"1149812345678901234",
           "full_text":"RT @carol: the whole original text, well past the truncation point of the retweet…","truncated":false,
           "lang":"en","source":"<a href=\"https://mobile.twitter.com\" rel=\"nofollow\">Twitter Web App</a>",
           "user":{"id":111,"id_str":"111","screen_name":"dave","name":"Dave","profile_image_url":"http://a/d.jpg",
                   "profile_image_url_https":"https://a/d.jpg","followers_count":1,"friends_count":2,"statuses_count":3,"listed_count":0},
           "retweet_count":5,"favorite_count":0,
           "entities":{"hashtags":[],"user_mentions":[{"screen_name":"carol","id_str":"222","indices":[3,9]}],"urls":[],"symbols":[]},
           "retweeted_status":{"created_at":"Fri Jul 12 20:00:00 +0000 2019","id_str":"1149800000000000000",
             "full_text":"the whole original text, well past the truncation point of the retweet, kept in full &amp; unescaped on display",
             "user":{"id_str":"222","screen_name":"carol","name":"Carol","profile_image_url":"http://a/c.jpg"},
             "retweet_count":5,"favorite_count":9,
             "entities":{"hashtags":[{"text":"full","indices":[0,4]}],"user_mentions":[],"urls":[]}}},
          {"created_at":"Sat Jul 13 01:02:03 +0000 2019","id_str":"1149900000000000000","text":"reply with a photo #pic",
           "in_reply_to_status_id_str":"1149800000000000000","in_reply_to_user_id_str":"222",
           "user":{"id_str":"111","screen_name":"dave","name":"Dave"},
           "entities":{"hashtags":[{"text":"pic","indices":[19,23]}]},
           "extended_entities":{"media":[{"id_str":"99","type":"photo","media_url_https":"https://pbs.twimg.com/media/p.jpg",
                                          "sizes":{"large":{"w":1024,"h":768}}}]}}
        ],
        "search_metadata":{"max_id_str":"1149900000000000000","next_results":"?max_id=1149812345678901233&q=x","count":2}}
        """#

    /// An archive's tweets file: every number a string, no `user`, retweets only as text.
    static let archiveTweets = #"""
        window.YTD.tweets.part0 = [ {
          "tweet" : {
            "edit_info" : { "initial" : { "editTweetIds" : [ "1500000000000000001" ], "editableUntil" : "2022-03-05T10:00:00.000Z" } },
            "retweeted" : false,
            "source" : "<a href=\"https://mobile.twitter.com\" rel=\"nofollow\">Twitter Web App</a>",
            "entities" : {
              "hashtags" : [ { "text" : "swift", "indices" : [ "6", "12" ] } ],
              "symbols" : [ ],
              "user_mentions" : [ { "name" : "Bob", "screen_name" : "bob", "indices" : [ "13", "17" ], "id_str" : "783214", "id" : "783214" } ],
              "urls" : [ ]
            },
            "display_text_range" : [ "0", "17" ],
            "favorite_count" : "12",
            "id_str" : "1500000000000000001",
            "truncated" : false,
            "retweet_count" : "3",
            "id" : "1500000000000000001",
            "created_at" : "Sat Mar 05 09:30:00 +0000 2022",
            "favorited" : false,
            "full_text" : "Hello #swift @bob",
            "lang" : "en"
          }
        }, {
          "tweet" : {
            "id_str" : "1500000000000000002", "id" : "1500000000000000002",
            "full_text" : "RT @carol: only the text survives in an archive",
            "created_at" : "Sun Mar 06 09:30:00 +0000 2022", "favorite_count" : "0", "retweet_count" : "0", "lang" : "en",
            "entities" : { "hashtags" : [ ], "symbols" : [ ], "user_mentions" : [ ], "urls" : [ ] }
          }
        } ]
        """#

    static let archiveAccount = #"""
        window.YTD.account.part0 = [ { "account" : { "email" : "owner@example.com", "createdVia" : "web", "username" : "owner",
          "accountId" : "4242", "createdAt" : "2010-01-02T03:04:05.000Z", "accountDisplayName" : "The Owner" } } ]
        """#

    static let archiveProfile = #"""
        window.YTD.profile.part0 = [ { "profile" : { "description" : { "bio" : "I tweet", "website" : "https://t.co/w", "location" : "Lyon" },
          "avatarMediaUrl" : "http://pbs.twimg.com/profile_images/4242/o.jpg" } } ]
        """#

    static func archivePart(_ variable: String, ids: ClosedRange<Int>) -> String {
        let entries = ids.map { id in
            #"{"tweet":{"id_str":"\#(id)","full_text":"part tweet \#(id)","created_at":"Mon Jan 02 00:00:00 +0000 2023","favorite_count":"1","retweet_count":"0"}}"#
        }
        return "window.YTD.\(variable) = [\n" + entries.joined(separator: ",\n") + "\n]"
    }

    static let archiveManifest = #"""
        window.__THAR_CONFIG = {
          "userInfo" : { "accountId" : "4242", "userName" : "owner", "displayName" : "The Owner" },
          "archiveInfo" : { "sizeBytes" : "1000", "generationDate" : "2023-01-03T00:00:00.000Z", "isPartialArchive" : false },
          "dataTypes" : {
            "tweets" : { "files" : [
              { "fileName" : "data/tweets.js", "globalName" : "YTD.tweets.part0", "count" : "2" },
              { "fileName" : "data/tweets-part1.js", "globalName" : "YTD.tweets.part1", "count" : "3" }
            ] }
          }
        }
        """#

    /// A twarc2 raw line: a page exactly as returned, plus `__twarc`.
    static let twarcRawLine =
        #"{"data":[{"id":"30","text":"raw line","author_id":"12","created_at":"2022-01-01T00:00:00.000Z"}],"includes":{"users":[{"id":"12","username":"zed","name":"Zed"}]},"meta":{"newest_id":"30","oldest_id":"30","result_count":1},"__twarc":{"url":"https://api.twitter.com/2/tweets/search/recent?query=x","version":"2.13.0","retrieved_at":"2022-01-01T00:00:05+00:00"}}"#

    /// A `twarc2 flatten` line: one tweet with its author, replied-to user, media and expanded references merged in.
    static let twarcFlatLine =
        #"{"id":"40","text":"flat &amp; quoted","author_id":"12","in_reply_to_user_id":"13","created_at":"2022-01-02T00:00:00.000Z","referenced_tweets":[{"type":"quoted","id":"41","text":"the quoted one","author_id":"13","author":{"id":"13","username":"yan","name":"Yan"}}],"attachments":{"media_keys":["3_7"],"media":[{"media_key":"3_7","type":"photo","url":"https://pbs.twimg.com/m.jpg"}]},"author":{"id":"12","username":"zed","name":"Zed","url":""},"in_reply_to_user":{"id":"13","username":"yan","name":"Yan"},"__twarc":{"url":"https://api.twitter.com/2/tweets/search/recent?query=x","version":"2.13.0","retrieved_at":"2022-01-02T00:00:05+00:00"}}"#
}

extension String {
    var data: Data { Data(utf8) }
}
