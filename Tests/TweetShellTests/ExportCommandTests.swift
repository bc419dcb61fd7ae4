import TweetKit
import XCTest

@testable import TweetShell

/// `export --all` parses, with the format flag in either order, and appears in help.
final class ExportCommandTests: XCTestCase {
    func testAllFlag() throws {
        XCTAssertEqual(
            try ShellCommand.parse("export out.jsonl --all"),
            .export(path: "out.jsonl", format: .twarc2JSONL, all: true))
        XCTAssertEqual(
            try ShellCommand.parse("export out.txt --all --format flat"),
            .export(path: "out.txt", format: .flattenedJSONL, all: true))
        XCTAssertEqual(try ShellCommand.parse("export out.jsonl"), .export(path: "out.jsonl", format: .twarc2JSONL))
        XCTAssertThrowsError(try ShellCommand.parse("export out.jsonl --everything"))
        let spec = try XCTUnwrap(CommandSpec.named("export"))
        XCTAssertTrue(spec.synopsis.contains("--all") && spec.flags.contains("--all"))
    }
}
