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

    /// `export --all out.jsonl` once took `--all` for the file and refused `out.jsonl`.
    func testFlagsComeBeforeOrAfterTheFile() throws {
        let parsed: [(line: String, command: ShellCommand)] = [
            ("export --all out.jsonl", .export(path: "out.jsonl", format: .twarc2JSONL, all: true)),
            ("export --format flat --all out.csv", .export(path: "out.csv", format: .flattenedJSONL, all: true)),
            ("export ./-x.jsonl", .export(path: "./-x.jsonl", format: .twarc2JSONL)),
        ]
        for (line, command) in parsed { XCTAssertEqual(try ShellCommand.parse(line), command, line) }
        let refused: [(line: String, error: CommandError)] = [
            ("export --all", CommandError("export needs a file to write, e.g. export results.jsonl", column: 13)),
            (
                "export a.jsonl b.jsonl",
                CommandError("export writes one file, 'a.jsonl'; 'b.jsonl' would be a second", column: 16)
            ),
            ("export -x a.jsonl", CommandError("unknown option '-x' for export", column: 8)),
        ]
        for (line, expected) in refused {
            XCTAssertThrowsError(try ShellCommand.parse(line), line) { XCTAssertEqual($0 as? CommandError, expected) }
        }
    }
}
