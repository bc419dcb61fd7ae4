import StreamCore
import StreamTesting
import XCTest

/// The reducing family hands its subscription downstream before it asks upstream for `.unlimited`, as Combine does,
/// and ignores a cancel that comes before the upstream subscription.
final class ReducingOrderTests: XCTestCase {
    private typealias Make = (MisbehavingPublisher<Int, S4Error>) -> AnyPublisher<Int, any Error>

    private let operators: [(String, Make)] = [
        ("reduce", { $0.reduce(0, +).mapError { $0 as any Error }.eraseToAnyPublisher() }),
        ("tryReduce", { $0.tryReduce(0) { $0 + $1 }.eraseToAnyPublisher() }),
        ("collect", { $0.collect().map(\.count).mapError { $0 as any Error }.eraseToAnyPublisher() }),
        ("count", { $0.count().mapError { $0 as any Error }.eraseToAnyPublisher() }),
        ("min", { $0.min().mapError { $0 as any Error }.eraseToAnyPublisher() }),
        ("tryMax", { $0.tryMax { $0 < $1 }.eraseToAnyPublisher() }),
        ("contains", { $0.contains(3).map { $0 ? 1 : 0 }.mapError { $0 as any Error }.eraseToAnyPublisher() }),
        ("tryContains", { $0.tryContains { $0 == 3 }.map { $0 ? 1 : 0 }.eraseToAnyPublisher() }),
        (
            "allSatisfy",
            { $0.allSatisfy { $0 > 0 }.map { $0 ? 1 : 0 }.mapError { $0 as any Error }.eraseToAnyPublisher() }
        ),
        ("first", { $0.first().mapError { $0 as any Error }.eraseToAnyPublisher() }),
        ("tryFirst", { $0.tryFirst { $0 > 0 }.eraseToAnyPublisher() }),
        ("last", { $0.last().mapError { $0 as any Error }.eraseToAnyPublisher() }),
        ("tryLast", { $0.tryLast { $0 > 0 }.eraseToAnyPublisher() }),
    ]

    func testTheSubscriptionReachesDownstreamBeforeUpstreamIsAsked() {
        for (name, make) in operators {
            let upstream = MisbehavingPublisher<Int, S4Error>()
            let subscription = RecordingSubscription()
            var callsWhenSubscribed: [RecordedCall]?
            let tracking = TrackingSubscriber<Int, any Error>(
                initialDemand: nil,
                onEvent: { event in
                    if case .subscription = event { callsWhenSubscribed = subscription.calls }
                })
            make(upstream).subscribe(tracking)
            upstream.send(subscription: subscription)
            XCTAssertEqual(callsWhenSubscribed, [], name)
            XCTAssertEqual(subscription.calls, [.request(.unlimited)], name)
        }
    }

    func testAFailureDuringTheRequestFollowsTheSubscription() {
        let upstream = MisbehavingPublisher<Int, S4Error>()
        let subscription = RecordingSubscription()
        subscription.onRequest = { _ in upstream.send(completion: .failure(.other)) }
        let tracking = TrackingSubscriber<Int, S4Error>(initialDemand: nil)
        upstream.reduce(0, +).subscribe(tracking)
        upstream.send(subscription: subscription)
        XCTAssertEqual(tracking.events, [.subscription, .completion(.failure(.other))])
    }

    func testACancelBeforeTheUpstreamSubscriptionIsIgnored() {
        for (name, make) in operators {
            let upstream = MisbehavingPublisher<Int, S4Error>()
            let tracking = TrackingSubscriber<Int, any Error>(initialDemand: nil)
            make(upstream).subscribe(tracking)
            // The upstream's subscriber is the reducing operator's own object (the map/mapError come after it).
            guard let inner = upstream.subscriberAsSubscription else {
                XCTFail("\(name): the subscriber is not a subscription")
                continue
            }
            inner.cancel()
            let subscription = RecordingSubscription()
            upstream.send(subscription: subscription)
            XCTAssertEqual(subscription.calls, [.request(.unlimited)], name)
        }
    }
}
