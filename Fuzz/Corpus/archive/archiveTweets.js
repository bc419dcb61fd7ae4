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