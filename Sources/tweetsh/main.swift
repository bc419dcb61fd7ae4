print("tweetsh: not built yet")
