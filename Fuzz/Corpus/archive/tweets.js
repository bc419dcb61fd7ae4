window.YTD.tweets.part0 = [
  {
    "tweet": {
      "edit_info": {
        "initial": {
          "editTweetIds": [
            "1050118621198921728"
          ]
        }
      },
      "retweeted": false,
      "source": "<a href=\"https://mobile.twitter.com\" rel=\"nofollow\">Twitter Web App</a>",
      "entities": {
        "hashtags": [
          {
            "text": "fun",
            "indices": [
              "38",
              "42"
            ]
          }
        ],
        "symbols": [],
        "user_mentions": [
          {
            "name": "Bob",
            "screen_name": "bob",
            "indices": [
              "0",
              "4"
            ],
            "id_str": "783214",
            "id": "783214"
          }
        ],
        "urls": []
      },
      "display_text_range": [
        "0",
        "42"
      ],
      "favorite_count": "2",
      "id_str": "1050118621198921728",
      "truncated": false,
      "retweet_count": "1",
      "id": "1050118621198921728",
      "created_at": "Wed Oct 10 20:19:24 +0000 2018",
      "favorited": false,
      "full_text": "@bob make room for more expression &amp; #fun",
      "lang": "en"
    }
  },
  {
    "tweet": {
      "edit_info": {
        "initial": {
          "editTweetIds": [
            "1050118621198921728"
          ]
        }
      },
      "retweeted": false,
      "source": "<a href=\"https://mobile.twitter.com\" rel=\"nofollow\">Twitter Web App</a>",
      "entities": {
        "hashtags": [
          {
            "text": "fun",
            "indices": [
              "38",
              "42"
            ]
          }
        ],
        "symbols": [],
        "user_mentions": [
          {
            "name": "Bob",
            "screen_name": "bob",
            "indices": [
              "0",
              "4"
            ],
            "id_str": "783214",
            "id": "783214"
          }
        ],
        "urls": []
      },
      "display_text_range": [
        "0",
        "42"
      ],
      "favorite_count": "2",
      "id_str": "1050118621198921729",
      "truncated": false,
      "retweet_count": "1",
      "id": "1050118621198921729",
      "created_at": "Wed Oct 10 20:19:24 +0000 2018",
      "favorited": false,
      "full_text": "@bob make room for more expression &amp; #fun",
      "lang": "en",
      "in_reply_to_status_id_str": "1050118621198921728"
    }
  }
]