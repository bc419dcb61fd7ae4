import Foundation

/// twarc2 lines for the CSV tests, in the shapes of /work/shared/docs/x-api-v2-contract.md: a search page holding a
/// retweet, a quote, two replies (one whose parent the page includes, one whose parent it does not) and a tweet with
/// media, and a filtered-stream line whose `data` is one object with `matching_rules`. Written over several lines here
/// for reading; `lines` joins each into the single line twarc2 writes.
enum TwarcCSVFixtures {
    static let searchPage = #"""
        {"data":[
          {"id":"1600000000000000010","text":"RT @alice: Original text with #Swift and a link https://t.co/o1 …",
           "author_id":"20","conversation_id":"1600000000000000010","created_at":"2022-12-01T10:00:00.000Z",
           "lang":"en","source":"Twitter for iPhone","possibly_sensitive":false,"reply_settings":"everyone",
           "edit_history_tweet_ids":["1600000000000000010"],
           "public_metrics":{"retweet_count":5,"reply_count":0,"like_count":0,"quote_count":0,"bookmark_count":0,
                             "impression_count":0},
           "entities":{"mentions":[{"start":3,"end":9,"username":"alice","id":"10"}]},
           "referenced_tweets":[{"type":"retweeted","id":"1600000000000000001"}]},
          {"id":"1600000000000000020","text":"Agreed, \"quoting\" this https://t.co/q1",
           "author_id":"30","conversation_id":"1600000000000000020","created_at":"2022-12-01T11:00:00.000Z",
           "lang":"en","edit_history_tweet_ids":["1600000000000000019","1600000000000000020"],
           "edit_controls":{"edits_remaining":4,"is_edit_eligible":true,"editable_until":"2022-12-01T11:30:00.000Z"},
           "public_metrics":{"retweet_count":1,"reply_count":2,"like_count":3,"quote_count":4,"bookmark_count":5,
                             "impression_count":600},
           "entities":{"urls":[{"start":24,"end":47,"url":"https://t.co/q1",
                                "expanded_url":"https://twitter.com/dave/status/1600000000000000002",
                                "display_url":"twitter.com/dave/status/1…"}]},
           "referenced_tweets":[{"type":"quoted","id":"1600000000000000002"}]},
          {"id":"1600000000000000030","text":"@alice thanks, 100% agree\r\nsee you there",
           "author_id":"20","conversation_id":"1600000000000000003","created_at":"2022-12-01T12:00:00.000Z",
           "lang":"en","in_reply_to_user_id":"10","edit_history_tweet_ids":["1600000000000000030"],
           "entities":{"mentions":[{"start":0,"end":6,"username":"alice","id":"10"}]},
           "geo":{"place_id":"01a9a39529b27f36","coordinates":{"type":"Point","coordinates":[-73.99,40.73]}},
           "referenced_tweets":[{"type":"replied_to","id":"1600000000000000003"}]},
          {"id":"1600000000000000031","text":"@alice and another thing","author_id":"20",
           "conversation_id":"1600000000000000099","in_reply_to_user_id":"10",
           "edit_history_tweet_ids":["1600000000000000031"],
           "referenced_tweets":[{"type":"replied_to","id":"1600000000000000099"}]},
          {"id":"1600000000000000040","text":"Look \ud83d\ude00 #Caturday https://t.co/m1","author_id":"10",
           "conversation_id":"1600000000000000040","created_at":"2022-12-01T13:00:00.000Z","lang":"en",
           "possibly_sensitive":true,"edit_history_tweet_ids":["1600000000000000040"],
           "withheld":{"copyright":false,"country_codes":["DE","FR"],"scope":"tweet"},
           "attachments":{"media_keys":["3_2","7_3"]},
           "entities":{"hashtags":[{"start":8,"end":17,"tag":"Caturday"}],
                       "urls":[{"start":18,"end":41,"url":"https://t.co/m1",
                                "expanded_url":"https://twitter.com/alice/status/1600000000000000040/photo/1",
                                "display_url":"pic.twitter.com/m1","media_key":"3_2"}]}}
        ],
        "includes":{
          "users":[
            {"id":"10","username":"alice","name":"Alice","url":"","verified":true,"verified_type":"blue",
             "created_at":"2010-01-01T00:00:00.000Z","protected":false,
             "public_metrics":{"followers_count":100,"following_count":50,"tweet_count":1000,"listed_count":7}},
            {"id":"20","username":"bob","name":"Bob, B.","url":"","verified":false,"protected":false,
             "public_metrics":{"followers_count":1,"following_count":2,"tweet_count":3,"listed_count":0}},
            {"id":"30","username":"carol","name":"Carol","url":"https://t.co/carol","location":"Zürich",
             "description":"Writes about #café with @dave\nand more https://t.co/d1","pinned_tweet_id":"1600000000000000020",
             "verified":false,"verified_type":"none","protected":false,
             "entities":{"url":{"urls":[{"start":0,"end":23,"url":"https://t.co/carol",
                                         "expanded_url":"https://carol.example.org","display_url":"carol.example.org"}]},
                         "description":{"hashtags":[{"start":13,"end":18,"tag":"café"}],
                                        "mentions":[{"start":24,"end":29,"username":"dave"}],
                                        "urls":[{"start":39,"end":62,"url":"https://t.co/d1",
                                                 "expanded_url":"https://blog.example.org/","display_url":"blog.example.org"}]}},
             "withheld":{"country_codes":["XY"]},
             "public_metrics":{"followers_count":9,"following_count":8,"tweet_count":7,"listed_count":6}},
            {"id":"40","username":"dave","name":"Dave"}
          ],
          "tweets":[
            {"id":"1600000000000000001","text":"Original text with #Swift and a link https://t.co/o1\nsecond line",
             "author_id":"10","created_at":"2022-11-30T09:00:00.000Z","lang":"en",
             "public_metrics":{"retweet_count":5,"reply_count":2,"like_count":40,"quote_count":1,"bookmark_count":3,
                               "impression_count":1200},
             "entities":{"hashtags":[{"start":19,"end":25,"tag":"Swift"}],
                         "urls":[{"start":37,"end":52,"url":"https://t.co/o1","expanded_url":"https://swift.org/blog",
                                  "display_url":"swift.org/blog"}],
                         "annotations":[{"start":20,"end":24,"probability":0.9,"type":"Other","normalized_text":"Swift"}]},
             "context_annotations":[{"domain":{"id":"131","name":"Unified Twitter Taxonomy"},
                                     "entity":{"id":"848920371311001600","name":"Technology"}}],
             "attachments":{"media_keys":["3_1"]}},
            {"id":"1600000000000000002","text":"Hot take","author_id":"40"},
            {"id":"1600000000000000003","text":"Who is coming?","author_id":"10"}
          ],
          "media":[
            {"media_key":"3_1","type":"photo","url":"https://pbs.twimg.com/media/o1.jpg"},
            {"media_key":"3_2","type":"photo","url":"https://pbs.twimg.com/media/m1.jpg","width":1200,"height":800,
             "alt_text":"A cat — sleeping"},
            {"media_key":"7_3","type":"video","preview_image_url":"https://pbs.twimg.com/v.jpg","duration_ms":4200,
             "variants":[{"bit_rate":832000,"content_type":"video/mp4","url":"https://video.twimg.com/v.mp4"}]}
          ],
          "places":[
            {"id":"01a9a39529b27f36","full_name":"Manhattan, NY","name":"Manhattan","country":"United States",
             "country_code":"US","place_type":"city",
             "geo":{"type":"Feature","bbox":[-74.026675,40.683935,-73.910408,40.877483],"properties":{}}}
          ]
        },
        "meta":{"newest_id":"1600000000000000040","oldest_id":"1600000000000000010","result_count":5},
        "__twarc":{"url":"https://api.twitter.com/2/tweets/search/recent?query=swift","version":"2.14.0",
                   "retrieved_at":"2022-12-02T00:00:00+00:00"}}
        """#

    static let streamLine = #"""
        {"data":{"id":"1600000000000000050","text":"Poll time","author_id":"10",
                 "attachments":{"poll_ids":["1199786642468413448"]},"edit_history_tweet_ids":["1600000000000000050"]},
         "includes":{"users":[{"id":"10","username":"alice","name":"Alice"}],
                     "polls":[{"id":"1199786642468413448","voting_status":"closed","duration_minutes":1440,
                               "end_datetime":"2022-12-02T13:00:00.000Z",
                               "options":[{"position":1,"label":"yes","votes":3},{"position":2,"label":"no","votes":1}]}]},
         "matching_rules":[{"id":"1","tag":"polls"}],
         "__twarc":{"url":"https://api.twitter.com/2/tweets/search/stream","version":"2.14.0",
                    "retrieved_at":"2022-12-02T13:05:00+00:00"}}
        """#

    /// A fixture as the single line twarc2 writes (the only raw newlines in it are between members).
    static func line(_ text: String) -> String {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined()
    }
}
