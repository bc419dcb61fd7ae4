import Foundation
import StreamCore
import StreamTesting
import XCTest

/// Combine's debugging surface: playground descriptions and mirrors of subscribers, the Recording's `encode(into:)`,
/// and the `_Introspection` hook.
final class ReflectionAndIntrospectionTests: XCTestCase {
    private final class Target {
        var value = 0
    }

    func testSubscribersShowTheirDescriptionAndCombinesMirror() {
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        XCTAssertEqual(sink.playgroundDescription as? String, "Sink")
        XCTAssertTrue(sink.customMirror.children.isEmpty)

        let target = Target()
        let assign = Subscribers.Assign(object: target, keyPath: \Target.value)
        XCTAssertEqual(assign.playgroundDescription as? String, "Assign Target.")
        XCTAssertEqual(assign.customMirror.children.map(\.label), ["object", "keyPath", "status"])
        XCTAssertTrue(assign.customMirror.children.first?.value as? Target === target)

        let anonymous = AnySubscriber<Int, Never>()
        XCTAssertEqual(anonymous.playgroundDescription as? String, "Anonymous AnySubscriber")
        XCTAssertTrue(Mirror(reflecting: anonymous).subjectType == String.self)
        let erasedSubject = AnySubscriber(PassthroughSubject<Int, Never>())
        XCTAssertEqual(erasedSubject.description, "Subject")
        XCTAssertFalse(Mirror(reflecting: erasedSubject).children.isEmpty)
        let erasedSink = AnySubscriber(sink)
        XCTAssertTrue(Mirror(reflecting: erasedSink).subjectType == Subscribers.Sink<Int, Never>.self)

        XCTAssertEqual(Just(1).eraseToAnyPublisher().playgroundDescription as? String, "AnyPublisher")
    }

    func testRecordingEncodesIntoLikeEncodeTo() throws {
        let recording = Record<Int, Never>.Recording(output: [1, 2], completion: .finished)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys  // JSON objects have no key order of their own
        let into = try encoder.encode(EncodeInto(recording: recording))
        let to = try encoder.encode(recording)
        XCTAssertEqual(into, to)
    }

    /// Encodes through `encode(into:)`, so the two paths can be compared byte for byte.
    private struct EncodeInto: Encodable {
        let recording: Record<Int, Never>.Recording

        func encode(to encoder: any Encoder) throws {
            try recording.encode(into: encoder)
        }
    }

    private final class Log: _Introspection {
        var events: [String] = []

        func willReceive<Upstream: Publisher, Downstream: Subscriber>(publisher: Upstream, subscriber: Downstream)
        where Upstream.Failure == Downstream.Failure, Upstream.Output == Downstream.Input {
            events.append("subscribe \(subscriber)")
        }

        func willReceive<Downstream: Subscriber>(subscriber: Downstream, input: Downstream.Input) {
            events.append("value \(input)")
        }

        func didRequest(subscription: any Subscription, _ demand: Subscribers.Demand) {
            events.append("request \(demand)")
        }

        func didReceive<Downstream: Subscriber>(
            subscriber: Downstream, completion: Subscribers.Completion<Downstream.Failure>
        ) {
            events.append("completion")
        }
    }

    func testIntrospectionHearsOnlyWhileEnabledAndOnlySubscribeCalls() {
        let log = Log()
        let subject = PassthroughSubject<Int, Never>()
        let before = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        subject.subscribe(before)
        XCTAssertFalse(log.isEnabled)

        log.enable()
        XCTAssertTrue(log.isEnabled)
        var received: [Int] = []
        let observed = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { received.append($0) })
        subject.subscribe(observed)
        subject.receive(subscriber: Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in }))
        subject.send(1)
        log.disable()
        subject.send(2)
        subject.send(completion: .finished)

        XCTAssertFalse(log.isEnabled)
        XCTAssertEqual(received, [1, 2], "the observed subscriber still gets everything")
        XCTAssertEqual(log.events, ["subscribe Sink", "request unlimited", "value 1"])
    }
}

/// The operators' subscriptions describe and reflect themselves as Combine's do.
final class OperatorReflectionTests: XCTestCase {
    private func subscription<P: Publisher>(of publisher: P) -> any Subscription where P.Failure == Never {
        let tracking = TrackingSubscriber<P.Output, Never>(initialDemand: nil)
        publisher.subscribe(tracking)
        return tracking.subscription!
    }

    func testReducingOperatorsShowDownstreamResultInitialAndStatus() throws {
        let subject = PassthroughSubject<Int, Never>()
        let counted = subscription(of: subject.eraseToAnyPublisher().count())
        let mirror = try XCTUnwrap((counted as? CustomReflectable)?.customMirror)
        XCTAssertEqual(mirror.children.map(\.label), ["downstream", "result", "initial", "status"])
        XCTAssertEqual((counted as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String, "Count")
        XCTAssertFalse(counted is CustomDebugStringConvertible)

        let first = subscription(of: subject.eraseToAnyPublisher().first { $0 > 1 })
        XCTAssertEqual(String(describing: first), "TryFirst", "Combine's name for first(where:)")
    }

    func testFilteringOperatorsShowWhatCombineShows() throws {
        let subject = PassthroughSubject<Int, Never>()
        let prefix = subscription(of: subject.eraseToAnyPublisher().prefix { $0 < 3 })
        XCTAssertEqual((prefix as? CustomReflectable)?.customMirror.children.map(\.label), ["downstream"])
        let dropping = subscription(of: subject.eraseToAnyPublisher().drop { $0 < 3 })
        XCTAssertEqual((dropping as? CustomReflectable)?.customMirror.children.count, 0)
        XCTAssertEqual(
            (dropping as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String, "DropWhile")
    }

    func testIgnoreOutputPassesTheUpstreamSubscriptionThrough() {
        let subject = PassthroughSubject<Int, Never>()
        let ignored = subscription(of: subject.ignoreOutput())
        XCTAssertEqual(String(describing: ignored), "PassthroughSubject")
    }

    func testMulticastSubscribersGetAMulticastSubscription() throws {
        let upstream = PassthroughSubject<Int, Never>()
        let multicast = upstream.multicast(subject: PassthroughSubject<Int, Never>())
        var received: [Int] = []
        let tracking = TrackingSubscriber<Int, Never>(
            initialDemand: .max(1), demandAfterValue: { _ in .max(1) },
            onEvent: { if case .value(let v) = $0 { received.append(v) } })
        multicast.subscribe(tracking)
        let inner = try XCTUnwrap(tracking.subscription)
        XCTAssertEqual(String(describing: inner), "Multicast")
        XCTAssertEqual((inner as? CustomReflectable)?.customMirror.children.count, 0)
        let connection = multicast.connect()
        upstream.send(1)
        upstream.send(2)
        XCTAssertEqual(
            received, [1, 2], "demand returned from a value becomes a request through the inner subscription")
        tracking.cancel()
        upstream.send(3)
        XCTAssertEqual(received, [1, 2])
        connection.cancel()
    }
}

/// Subjects behind `@Published` and `objectWillChange` name their subscriptions as Combine's do.
final class SubjectSubscriptionNameTests: XCTestCase {
    private final class Model: ObservableObject {
        @Published var count = 0
    }

    func testPublishedAndObjectWillChangeSubscriptionsHaveCombinesNames() {
        let model = Model()
        let published = TrackingSubscriber<Int, Never>(initialDemand: nil)
        model.$count.subscribe(published)
        XCTAssertEqual(published.subscription.map { String(describing: $0) }, "PublishedSubject")
        let willChange = TrackingSubscriber<Void, Never>(initialDemand: nil)
        model.objectWillChange.subscribe(willChange)
        XCTAssertEqual(willChange.subscription.map { String(describing: $0) }, "ObservableObjectPublisher")
        let plain = TrackingSubscriber<Int, Never>(initialDemand: nil)
        CurrentValueSubject<Int, Never>(1).subscribe(plain)
        XCTAssertEqual(plain.subscription.map { String(describing: $0) }, "CurrentValueSubject")
    }
}

/// The value-up-front publishers and an erased subject show Combine's subscription names.
final class SourceSubscriptionNameTests: XCTestCase {
    private func describe<P: Publisher>(_ publisher: P) -> (String, Mirror?) where P.Failure == Never {
        let tracking = TrackingSubscriber<P.Output, Never>(initialDemand: nil)
        publisher.subscribe(tracking)
        let subscription = tracking.subscription!
        return (String(describing: subscription), (subscription as? CustomReflectable)?.customMirror)
    }

    func testJustOptionalAndResultSubscriptionsAreNamedAndShowTheirValue() {
        let just = describe(Just(42))
        XCTAssertEqual(just.0, "Just")
        XCTAssertEqual(just.1?.children.first?.value as? Int, 42)
        XCTAssertNil(just.1?.children.first?.label)
        XCTAssertEqual(describe(Optional(42).publisher).0, "Optional")
        XCTAssertEqual(describe(Result<Int, Never>.success(42).publisher).0, "Once")
    }

    func testAnErasedSubjectGetsASubjectSubscriptionAndNothingAfterCompletion() {
        final class Recorder: Subject {
            typealias Output = Int
            typealias Failure = Never
            var events: [String] = []
            func send(_ value: Int) { events.append("\(value)") }
            func send(completion: Subscribers.Completion<Never>) { events.append("end") }
            func send(subscription: any Subscription) { events.append(String(describing: subscription)) }
            func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {}
        }
        let recorder = Recorder()
        let erased = AnySubscriber(recorder)
        erased.receive(subscription: Subscriptions.empty)
        erased.receive(subscription: Subscriptions.empty)
        XCTAssertEqual(erased.receive(1), .none)
        erased.receive(completion: .finished)
        erased.receive(completion: .finished)
        XCTAssertEqual(erased.receive(2), .none)
        XCTAssertEqual(recorder.events, ["Subject", "1", "end"])
    }
}
