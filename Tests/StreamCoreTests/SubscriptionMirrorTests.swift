import Foundation
import StreamCore
import StreamTesting
import XCTest

/// What Combine's debugging surface shows of the sources' and subjects' subscriptions: their names (before and after
/// they end) and their mirrors' children; and the few subject rules that come with them.
final class SubscriptionMirrorTests: XCTestCase {
    private final class Model: ObservableObject {
        @Published var count = 0
    }

    /// The labels and the descriptions of a mirror's children.
    private func children(of value: Any) -> [String] {
        Mirror(reflecting: value).children.map { "\($0.label ?? "?")=\(String(describing: $0.value))" }
    }

    private func subscription<P: Publisher>(of publisher: P, demand: Subscribers.Demand? = nil) -> any Subscription {
        let tracking = TrackingSubscriber<P.Output, P.Failure>(initialDemand: demand)
        publisher.subscribe(tracking)
        return tracking.subscription!
    }

    func testSubjectSubscriptionsShowSubjectSubscriberAndDemandUntilTheyEnd() throws {
        let subject = PassthroughSubject<Int, Never>()
        let tracking = TrackingSubscriber<Int, Never>(initialDemand: .max(12))
        subject.subscribe(tracking)
        subject.send(1)
        let conduit = try XCTUnwrap(tracking.subscription)
        let live = children(of: conduit)
        XCTAssertEqual(live.map { $0.prefix { $0 != "=" } }, ["parent", "downstream", "demand", "subject"])
        XCTAssertTrue(live[0].contains("PassthroughSubject<"), live[0])
        XCTAssertTrue(live[1].contains("TrackingSubscriber"), live[1])
        XCTAssertEqual(live[2], "demand=max(11)")
        XCTAssertEqual(
            (conduit as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String,
            "PassthroughSubject")

        subject.send(completion: .finished)
        XCTAssertEqual(children(of: conduit), ["parent=nil", "downstream=nil", "demand=max(11)", "subject=nil"])
        XCTAssertEqual(String(describing: conduit), "PassthroughSubject")

        let current = subscription(of: CurrentValueSubject<Int, Never>(1))
        XCTAssertTrue(children(of: current)[0].contains("CurrentValueSubject<"))
        current.cancel()
        XCTAssertEqual(children(of: current), ["parent=nil", "downstream=nil", "demand=max(0)", "subject=nil"])
    }

    func testPublishedSubscriptionKeepsItsNameAfterCancelAndShowsItsSubject() {
        let model = Model()
        let conduit = subscription(of: model.$count, demand: .max(1))
        XCTAssertTrue(children(of: conduit)[0].contains("PublishedSubject<"), "\(children(of: conduit))")
        conduit.cancel()
        XCTAssertEqual(String(describing: conduit), "PublishedSubject")
    }

    func testObservableObjectPublisherSignalsEverythingOnceAnythingWasRequested() throws {
        let publisher = ObservableObjectPublisher()
        let tracking = TrackingSubscriber<Void, Never>(initialDemand: nil)
        publisher.subscribe(tracking)
        publisher.send()
        XCTAssertEqual(tracking.values.count, 0, "nothing requested yet")
        tracking.request(.max(1))
        publisher.send()
        publisher.send()
        publisher.send()
        XCTAssertEqual(tracking.values.count, 3)
        let conduit = try XCTUnwrap(tracking.subscription)
        XCTAssertEqual(children(of: conduit).map { $0.prefix { $0 != "=" } }, ["downstream"])
    }

    func testAnObjectThatDeclaresItsPublisherIsNotAnnouncedTo() {
        final class Declaring: ObservableObject {
            let objectWillChange = ObservableObjectPublisher()
            @Published var value = 0
        }
        let object = Declaring()
        var signals = 0
        let cancellable = object.objectWillChange.sink { signals += 1 }
        object.value = 1
        XCTAssertEqual(signals, 0)
        withExtendedLifetime(cancellable) {}
    }

    func testFutureSubscriptionShowsItsParentUntilTheResultHasBeenDelivered() throws {
        var promise: Future<Int, Never>.Promise?
        let future = Future<Int, Never> { promise = $0 }
        var parentWhileDelivering: String?
        var conduit: (any Subscription)?
        let tracking = TrackingSubscriber<Int, Never>(onEvent: { event in
            if case .value = event, let conduit {
                parentWhileDelivering =
                    Mirror(reflecting: conduit).children.first?.value as? Future<Int, Never>
                        == nil ? "nil" : "future"
            }
        })
        future.subscribe(tracking)
        conduit = tracking.subscription
        let before = children(of: try XCTUnwrap(conduit))
        XCTAssertEqual(before.map { $0.prefix { $0 != "=" } }, ["parent", "downstream", "hasAnyDemand", "subject"])
        XCTAssertEqual(before[2], "hasAnyDemand=true")
        promise?(.success(7))
        XCTAssertEqual(parentWhileDelivering, "future")
        XCTAssertEqual(
            children(of: try XCTUnwrap(conduit)),
            ["parent=nil", "downstream=nil", "hasAnyDemand=true", "subject=nil"])
        XCTAssertEqual(tracking.values, [7])
    }

    func testSequenceSubscriptionIsNamedAfterItsSequenceWhilePlaying() {
        let tracking = TrackingSubscriber<Int, Never>(initialDemand: nil)
        (1...3).publisher.subscribe(tracking)
        let sequence = tracking.subscription!
        XCTAssertEqual(String(describing: sequence), "1...3")
        XCTAssertEqual(children(of: sequence), ["sequence=1...3"])
        tracking.request(.unlimited)
        XCTAssertEqual(String(describing: sequence), "Sequence")
        XCTAssertEqual(children(of: sequence), ["sequence=[]"])
    }

    func testRecordSubscriptionShowsItsRecordingWhilePlaying() {
        let record = Record<Int, Never>(output: [1, 2], completion: .finished)
        let tracking = TrackingSubscriber<Int, Never>(initialDemand: nil)
        record.subscribe(tracking)
        let playback = tracking.subscription!
        XCTAssertEqual(String(describing: playback), "[1, 2]")
        XCTAssertEqual(children(of: playback), ["sequence=[1, 2]", "completion=finished"])
        tracking.request(.max(1))
        XCTAssertEqual(String(describing: playback), "[1, 2]", "the whole recording, not what is left")
        tracking.request(.max(1))
        XCTAssertEqual(String(describing: playback), "Cancelled Events")
        XCTAssertEqual(tracking.values, [1, 2])
    }

    /// An upstream that only keeps the subscriber it is given, so the operator's subscriber can be looked at before
    /// it has a subscription.
    private final class KeepingPublisher: Publisher {
        typealias Output = Int
        typealias Failure = Never
        var subscriber: Any?

        func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
            self.subscriber = subscriber
        }
    }

    private struct Point {
        var x: Int
        var y: Int
    }

    /// An upstream for key-path maps, keeping their subscriber.
    private final class KeepingPointPublisher: Publisher {
        typealias Output = Point
        typealias Failure = Never
        var subscriber: Any?

        func receive<S: Subscriber>(subscriber: S) where S.Input == Point, S.Failure == Never {
            self.subscriber = subscriber
        }
    }

    func testKeyPathMapsAreNamedValueForKeyAndShowTheirKeyPaths() throws {
        let upstream = KeepingPointPublisher()
        _ = upstream.map(\.x).sink { _ in }
        let one = try XCTUnwrap(upstream.subscriber)
        XCTAssertEqual(String(describing: one), "ValueForKey")
        XCTAssertEqual(Mirror(reflecting: one).children.map(\.label), ["keyPath"])
        XCTAssertTrue(Mirror(reflecting: one).children.first?.value as? KeyPath<Point, Int> == \Point.x)
        _ = upstream.map(\.x, \.y).sink { _ in }
        let two = try XCTUnwrap(upstream.subscriber)
        XCTAssertEqual(String(describing: two), "ValueForKeys")
        XCTAssertEqual(Mirror(reflecting: two).children.map(\.label), ["keyPath0", "keyPath1"])
        _ = upstream.map(\.x, \.y, \.x).sink { _ in }
        XCTAssertEqual(Mirror(reflecting: try XCTUnwrap(upstream.subscriber)).children.count, 3)
    }

    func testEncodeIsNotFinishedBeforeItsUpstreamSubscriptionNorWhileSubscribed() throws {
        let upstream = KeepingPublisher()
        let tracking = TrackingSubscriber<Data, any Error>()
        upstream.encode(encoder: JSONEncoder()).subscribe(tracking)
        let encoder = try XCTUnwrap(upstream.subscriber as? any Subscriber<Int, Never>)
        XCTAssertTrue(children(of: encoder).contains("finished=false"), "\(children(of: encoder))")
        encoder.receive(subscription: Subscriptions.empty)
        XCTAssertTrue(children(of: encoder).contains("finished=false"))
        encoder.receive(completion: .finished)
        XCTAssertTrue(children(of: encoder).contains("finished=true"))
    }
}
