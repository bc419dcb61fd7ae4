import Foundation
import TweetKit

// Fuzzes the archive reader on a real file, as it memory-maps its parts: the input becomes `data/tweets.js` in a scratch
// folder that is reused across runs, and every page of it is read.
private let folder: URL = {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("tweetsh-archive-fuzz-\(getpid())", isDirectory: true)
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}()

/// libFuzzer's entry point: one input of `size` bytes at `data`; returns 0, as libFuzzer requires.
@_cdecl("LLVMFuzzerTestOneInput")
public func archiveFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let file = folder.appendingPathComponent("tweets.js")
    do {
        try Data(bytes: data, count: size).write(to: file)
    } catch {
        fatalError("cannot write the fuzz input to \(file.path): \(error)")
    }
    guard let reader = try? ArchiveReader(url: file) else { return 0 }
    _ = try? reader.forEachPage(batchSize: 7) { page in
        for tweet in page.tweets { _ = tweet.displayText(in: page) }
    }
    return 0
}
