import Foundation
import Testing
import TweetKit
import XAPIStub

@testable import XAPI

@Suite("Filtered-stream rules against the stub: list, add, delete, dry run, and X's refusals")
struct StreamRulesTests {
    @Test func addListDeleteRoundTrip() async throws {
        let harness = try Harness()
        #expect(try await harness.client.streamRules().isEmpty)
        let change = try await harness.client.addStreamRules([
            NewStreamRule(value: "#swift lang:en", tag: "swift"), NewStreamRule(value: "from:alice"),
        ])
        #expect(change.problems.isEmpty)
        #expect(change.created.map(\.value) == ["#swift lang:en", "from:alice"])
        #expect(change.created.map(\.tag) == ["swift", nil])
        let listed = try await harness.client.streamRules()
        #expect(listed == change.created)
        let request = try #require(harness.stub.requests(path: "/2/tweets/search/stream/rules").dropFirst().first)
        #expect(request.method == "POST")
        #expect(request.headers["content-type"] == "application/json")
        #expect(request.bodyText.contains("\"add\""))

        let deleted = try await harness.client.deleteStreamRules(ids: [listed[0].id])
        #expect(deleted.deleted == 1)
        #expect(try await harness.client.streamRules().map(\.value) == ["from:alice"])
    }

    @Test func dryRunChecksWithoutAdding() async throws {
        let harness = try Harness()
        let change = try await harness.client.addStreamRules([NewStreamRule(value: "cats has:media")], dryRun: true)
        #expect(change.dryRun)
        #expect(change.created.count == 1)
        #expect(harness.stub.requests(path: "/2/tweets/search/stream/rules").last?.query["dry_run"] == "true")
        #expect(try await harness.client.streamRules().isEmpty)
    }

    @Test func duplicateInvalidAndCapAreProblemsNamingTheRule() async throws {
        let harness = try Harness()
        harness.stub.streamRules.cap = 2
        let first = try await harness.client.addStreamRules([NewStreamRule(value: "coffee")])
        let id = try #require(first.created.first?.id)

        let duplicate = try await harness.client.addStreamRules([NewStreamRule(value: "coffee")])
        #expect(duplicate.created.isEmpty)
        #expect(
            duplicate.problems == [
                StreamRuleProblem(kind: .duplicate(existingID: id), value: "coffee", detail: "DuplicateRule")
            ])
        #expect(duplicate.problems[0].description.contains("already a rule (id \(id))"))

        let invalid = try await harness.client.addStreamRules([NewStreamRule(value: "-cats -dogs")])
        #expect(invalid.problems.first?.kind == .invalid)
        #expect(invalid.problems.first?.detail?.contains("(at position 1)") == true)

        let capped = try await harness.client.addStreamRules([
            NewStreamRule(value: "tea"), NewStreamRule(value: "cocoa"),
        ])
        #expect(capped.created.map(\.value) == ["tea"])
        #expect(capped.problems.map(\.kind) == [.ruleCap])
        #expect(capped.problems[0].description.contains("rule cap is reached"))

        let missing = try await harness.client.deleteStreamRules(ids: ["42"])
        #expect(missing.deleted == 0)
        #expect(missing.problems.map(\.kind) == [.notFound])
    }

    @Test func aMalformedBodyIsABadRequest() async throws {
        let harness = try Harness()
        let error = await #expect(throws: XAPIError.self) {
            _ = try await harness.client.perform(
                method: "POST", path: "/2/tweets/search/stream/rules", endpoint: "POST /2/tweets/search/stream/rules",
                json: Data("{}".utf8), authorization: .bearer)
        }
        guard case .badRequest(_, let message, _, _)? = error else {
            Issue.record("expected a bad request, got \(String(describing: error))")
            return
        }
        #expect(message.contains("exactly one of `add` and `delete`"))
    }
}
