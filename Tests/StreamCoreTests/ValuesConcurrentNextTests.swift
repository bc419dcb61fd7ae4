import Foundation
import StreamCore
import XCTest

/// Several tasks awaiting `next()` on one `values` iterator at once: Combine resumes every one of them.
final class ValuesConcurrentNextTests: XCTestCase {
    /// Shares one iterator between tasks, as a test of concurrent pulls must (iterators are value types).
    private final class SharedIterator<Base: AsyncIteratorProtocol>: @unchecked Sendable {
        private var base: Base
        init(_ base: Base) { self.base = base }
        func next() async throws -> Base.Element? {
            var copy = base
            return try await copy.next()
        }
    }

    /// Signals each request the iterator makes, so the test sends only once the pulls are in.
    private func requestSignals(_ subscription: RecordingSubscription) -> AsyncStream<Subscribers.Demand> {
        let (stream, continuation) = AsyncStream<Subscribers.Demand>.makeStream()
        subscription.onRequest = { continuation.yield($0) }
        return stream
    }

    func testThreeConcurrentPullsEachGetAValue() async throws {
        let upstream = MisbehavingPublisher<Int, Never>()
        let subscription = RecordingSubscription()
        var requests = requestSignals(subscription).makeAsyncIterator()
        let iterator = SharedIterator(upstream.values.makeAsyncIterator())
        upstream.send(subscription: subscription)
        let results = try await withThrowingTaskGroup(of: Int?.self) { group in
            for _ in 0..<3 { group.addTask { try await iterator.next() } }
            for _ in 0..<3 { _ = await requests.next() }
            for _ in 0..<4 { await Task.yield() }
            for value in 1...3 { XCTAssertEqual(upstream.send(value), .none) }
            var results: [Int?] = []
            for try await result in group { results.append(result) }
            return results
        }
        XCTAssertEqual(results.compactMap { $0 }.sorted(), [1, 2, 3])
        XCTAssertEqual(subscription.calls, [.request(.max(1)), .request(.max(1)), .request(.max(1))])
    }

    func testPullsBeforeTheSubscriptionAreRequestedTogether() async throws {
        let upstream = MisbehavingPublisher<Int, Never>()
        let subscription = RecordingSubscription()
        var requests = requestSignals(subscription).makeAsyncIterator()
        let iterator = SharedIterator(upstream.values.makeAsyncIterator())
        let results = try await withThrowingTaskGroup(of: Int?.self) { group in
            for _ in 0..<3 { group.addTask { try await iterator.next() } }
            // The pulls are owed until the subscription arrives, then requested together (however many were in
            // by then; the later ones request their own).
            for _ in 0..<8 { await Task.yield() }
            upstream.send(subscription: subscription)
            var requested = 0
            while requested < 3 {
                requested += await requests.next()?.max ?? 0
            }
            for value in 1...3 { upstream.send(value) }
            var results: [Int?] = []
            for try await result in group { results.append(result) }
            return results
        }
        XCTAssertEqual(results.compactMap { $0 }.sorted(), [1, 2, 3])
    }

    func testACompletionResumesEveryPull() async throws {
        let upstream = MisbehavingPublisher<Int, S4Error>()
        let subscription = RecordingSubscription()
        var requests = requestSignals(subscription).makeAsyncIterator()
        let iterator = SharedIterator(upstream.values.makeAsyncIterator())
        upstream.send(subscription: subscription)
        let outcomes = await withTaskGroup(of: String.self) { group in
            for _ in 0..<3 {
                group.addTask {
                    do {
                        return try await iterator.next().map { "value \($0)" } ?? "nil"
                    } catch {
                        return "\(error)"
                    }
                }
            }
            for _ in 0..<3 { _ = await requests.next() }
            for _ in 0..<4 { await Task.yield() }
            upstream.send(completion: .failure(.boom))
            var outcomes: [String] = []
            for await outcome in group { outcomes.append(outcome) }
            return outcomes
        }
        XCTAssertEqual(outcomes.sorted(), ["boom", "nil", "nil"])
    }

    func testCancellingOnePullEndsEveryPull() async throws {
        let upstream = MisbehavingPublisher<Int, Never>()
        let subscription = RecordingSubscription()
        var requests = requestSignals(subscription).makeAsyncIterator()
        let iterator = SharedIterator(upstream.values.makeAsyncIterator())
        upstream.send(subscription: subscription)
        let cancelled = Task { try await iterator.next() }
        let results = try await withThrowingTaskGroup(of: Int?.self) { group in
            for _ in 0..<2 { group.addTask { try await iterator.next() } }
            for _ in 0..<3 { _ = await requests.next() }
            cancelled.cancel()
            var results: [Int?] = []
            for try await result in group { results.append(result) }
            return results
        }
        let last = try await cancelled.value
        XCTAssertEqual(results + [last], [nil, nil, nil])
        XCTAssertEqual(subscription.calls.last, .cancel)
    }
}
