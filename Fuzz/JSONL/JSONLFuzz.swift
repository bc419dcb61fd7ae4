import Foundation
import TweetKit

// Fuzzes JSONL import one line at a time: whatever shape a collection line has, it decodes or throws.
/// libFuzzer's entry point: one input of `size` bytes at `data`; returns 0, as libFuzzer requires.
@_cdecl("LLVMFuzzerTestOneInput")
public func jsonlFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let line = Data(bytes: data, count: size)
    if let page = try? CollectionLineDecoder.decode(line: line) {
        for tweet in page.tweets + page.includedTweets { _ = tweet.displayText(in: page) }
    }
    return 0
}
