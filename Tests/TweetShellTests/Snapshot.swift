import Foundation
import XCTest

/// Compares rendered text with a file committed under Snapshots/.
///
/// Set TWEETSH_RECORD_SNAPSHOTS=1 to write the files; the test still fails then, so a recording is never mistaken
/// for a pass, and a missing snapshot fails rather than being created silently.
func assertSnapshot(_ text: String, named name: String, file: StaticString = #filePath, line: UInt = #line) {
    let directory = URL(fileURLWithPath: "\(file)").deletingLastPathComponent().appendingPathComponent("Snapshots")
    let url = directory.appendingPathComponent(name + ".txt")
    if ProcessInfo.processInfo.environment["TWEETSH_RECORD_SNAPSHOTS"] == "1" {
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try? Data(text.utf8).write(to: url)
        XCTFail("recorded snapshot \(name); run again without TWEETSH_RECORD_SNAPSHOTS", file: file, line: line)
        return
    }
    guard let data = try? Data(contentsOf: url), let expected = String(data: data, encoding: .utf8) else {
        XCTFail("no snapshot \(name) at \(url.path)", file: file, line: line)
        return
    }
    if expected != text {
        XCTFail("snapshot \(name) differs:\n--- expected\n\(expected)\n--- actual\n\(text)", file: file, line: line)
    }
}
