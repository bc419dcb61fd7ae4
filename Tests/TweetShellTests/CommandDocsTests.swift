import Foundation
import XCTest

@testable import TweetShell

/// docs/commands.md must document every command the shell knows, so the doc cannot fall behind the code.
final class CommandDocsTests: XCTestCase {
    func testEveryCommandHasASection() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let docs = try String(contentsOf: root.appendingPathComponent("docs/commands.md"), encoding: .utf8)
        for spec in CommandSpec.all {
            XCTAssertTrue(docs.contains("### `\(spec.name)"), "docs/commands.md has no section for \(spec.name)")
        }
        for key in ShellConfig.keys {
            XCTAssertTrue(docs.contains("`\(key)`"), "docs/commands.md does not document the config key \(key)")
        }
    }
}
