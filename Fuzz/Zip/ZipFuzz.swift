import Foundation
import TweetStore

// Fuzzes the ZIP reader as `import x.zip` uses it: the input is written as a ZIP file in a scratch folder reused across
// runs, then its central directory is read and the X archive inside unpacked (and removed again).
private let folder: URL = {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("tweetsh-zip-fuzz-\(getpid())", isDirectory: true)
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}()

/// libFuzzer's entry point: one input of `size` bytes at `data`; returns 0, as libFuzzer requires.
@_cdecl("LLVMFuzzerTestOneInput")
public func zipFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let file = folder.appendingPathComponent("archive.zip")
    do {
        try Data(bytes: data, count: size).write(to: file)
    } catch {
        fatalError("cannot write the fuzz input to \(file.path): \(error)")
    }
    _ = ZipReader.looksLikeZip(file)
    if let unpacked = try? ZippedArchive.unpack(file) { unpacked.remove() }
    return 0
}
