import Foundation
import TweetKit

// Fuzzes the X API v2 page decoder: any body a server (or a proxy in front of it) sends must decode or throw.
/// libFuzzer's entry point: one input of `size` bytes at `data`; returns 0, as libFuzzer requires.
@_cdecl("LLVMFuzzerTestOneInput")
public func apiPageFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let body = Data(bytes: data, count: size)
    if let page = try? APIResponseDecoder.decodePage(from: body) {
        // Reading every tweet's display text walks the entities against the text, where offsets can be out of range.
        for tweet in page.tweets + page.includedTweets { _ = tweet.displayText(in: page) }
    }
    return 0
}
