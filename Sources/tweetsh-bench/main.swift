print("tweetsh-bench: no suites yet")
