import XCTest

@testable import TweetShell

/// What `import` is given that names no file: a web address says to download it, a plain path says it is missing.
final class ImportTargetsTests: XCTestCase {
    func testAWebAddressSaysToDownloadItAndAMissingPathSaysSo() {
        let targets = ImportTargets(
            ["https://example.org/data/tweets.jsonl.gz", "HTTP://example.org/x.json", "/no/such/file.jsonl"],
            environment: [:])
        XCTAssertEqual(targets.targets, [])
        XCTAssertEqual(
            targets.missing,
            [
                "https://example.org/data/tweets.jsonl.gz is a web address; import reads files, so download it first "
                    + "(curl -LO 'https://example.org/data/tweets.jsonl.gz') and import the file",
                "HTTP://example.org/x.json is a web address; import reads files, so download it first "
                    + "(curl -LO 'HTTP://example.org/x.json') and import the file",
                "no such file or folder: /no/such/file.jsonl",
            ])
    }
}
