import Dispatch
import StreamCore
import StreamTesting
import XCTest

/// Races between a downstream request or cancel and the upstream's events, for the S4 operators that hold a value
/// back until demand arrives. Each race must end with exactly one delivery; run under `--sanitize=thread` too.
final class S4ConcurrencyTests: XCTestCase {
    private let rounds = 500

    private func race(_ first: @escaping @Sendable () -> Void, _ second: @escaping @Sendable () -> Void) {
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            if index == 0 { first() } else { second() }
        }
    }

    func testReduceResultIsDeliveredOnceWhenRequestRacesCompletion() {
        for _ in 0..<rounds {
            let upstream = ManualPublisher<Int, S4Error>()
            let tracking = TrackingSubscriber<Int, S4Error>(initialDemand: nil)
            upstream.reduce(0, +).subscribe(tracking)
            upstream.send(1)
            upstream.send(2)
            race({ upstream.send(completion: .finished) }, { tracking.request(.max(1)) })
            XCTAssertEqual(tracking.events, [.subscription, .value(3), .completion(.finished)])
        }
    }

    func testFirstAnswerIsDeliveredOnceWhenRequestRacesTheValue() {
        for _ in 0..<rounds {
            let upstream = ManualPublisher<Int, S4Error>()
            let tracking = TrackingSubscriber<Int, S4Error>(initialDemand: nil)
            upstream.first().subscribe(tracking)
            race({ upstream.send(5) }, { tracking.request(.max(1)) })
            XCTAssertEqual(tracking.events, [.subscription, .value(5), .completion(.finished)])
            XCTAssertEqual(upstream.cancelCount, 1)
        }
    }

    func testReplaceErrorReplacementIsDeliveredOnceWhenRequestRacesFailure() {
        for _ in 0..<rounds {
            let upstream = ManualPublisher<Int, S4Error>()
            let tracking = TrackingSubscriber<Int, Never>(initialDemand: nil)
            upstream.replaceError(with: 9).subscribe(tracking)
            race({ upstream.send(completion: .failure(.boom)) }, { tracking.request(.max(1)) })
            XCTAssertEqual(tracking.events, [.subscription, .value(9), .completion(.finished)])
        }
    }

    func testReplaceEmptyReplacementIsDeliveredOnceWhenRequestRacesFinish() {
        for _ in 0..<rounds {
            let upstream = ManualPublisher<Int, S4Error>()
            let tracking = TrackingSubscriber<Int, S4Error>(initialDemand: nil)
            upstream.replaceEmpty(with: 4).subscribe(tracking)
            race({ upstream.send(completion: .finished) }, { tracking.request(.max(1)) })
            XCTAssertEqual(tracking.events, [.subscription, .value(4), .completion(.finished)])
        }
    }

    func testCancelRacingCompletionNeverDeliversAfterCancelAndCancelsAtMostOnce() {
        for _ in 0..<rounds {
            let upstream = ManualPublisher<Int, S4Error>()
            let tracking = TrackingSubscriber<[Int], S4Error>()
            upstream.collect(3).subscribe(tracking)
            upstream.send(1)
            race({ upstream.send(completion: .finished) }, { tracking.cancel() })
            XCTAssertLessThanOrEqual(upstream.cancelCount, 1)
            XCTAssertLessThanOrEqual(tracking.events.count, 3)
        }
    }

    func testPrefixFromASubjectSentOnManyThreadsStopsAtExactlyN() {
        let subject = PassthroughSubject<Int, Never>()
        let tracking = TrackingSubscriber<Int, Never>()
        subject.prefix(100).subscribe(tracking)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for value in 0..<50 { subject.send(thread * 1000 + value) }
        }
        XCTAssertEqual(tracking.values.count, 100)
        XCTAssertTrue(tracking.isFinished)
        XCTAssertEqual(tracking.events.count, 102)
    }
}
