import StreamCore
import StreamTesting
import Testing

/// flatMap's demand, failure and reflection as Combine records them, where they differ from merge's.
@Suite struct FlatMapConformanceTests {
    @Test func asksUpstreamForMaxPublishersEvenNoneAndEveryChildForOne() {
        let upstream = ManualPublisher<ManualPublisher<Int, Never>, Never>()
        let none = TrackingSubscriber<Int, Never>(initialDemand: nil)
        upstream.flatMap(maxPublishers: .none) { $0 }.subscribe(none)
        #expect(upstream.requests == [.none])

        let outer = ManualPublisher<ManualPublisher<Int, Never>, Never>()
        let child = ManualPublisher<Int, Never>()
        let tracker = TrackingSubscriber<Int, Never>(initialDemand: nil)
        outer.flatMap(maxPublishers: .max(1)) { $0 }.subscribe(tracker)
        _ = outer.send(child)
        #expect(child.requests == [.max(1)], "asked for one value though downstream wants none yet")
    }

    @Test func aValueHeldBackOnlyByADeliveryIsAnsweredAtOnce() {
        let outer = ManualPublisher<ManualPublisher<Int, Never>, Never>()
        let first = ManualPublisher<Int, Never>()
        let second = ManualPublisher<Int, Never>()
        var secondAnswer: Subscribers.Demand?
        let tracker = TrackingSubscriber<Int, Never>(
            initialDemand: .max(2),
            onEvent: { event in
                if case .value(1) = event { secondAnswer = second.send(2) }
            })
        outer.flatMap { $0 }.subscribe(tracker)
        _ = outer.send(first)
        _ = outer.send(second)
        #expect(first.send(1) == .max(1))
        #expect(tracker.values == [1, 2])
        #expect(secondAnswer == .max(1), "answered as if delivered reentrantly")
        #expect(second.requests == [.max(1)], "and not asked again once delivered")
    }

    @Test func everyFinishOfAChildAsksUpstreamForAnother() {
        let outer = ManualPublisher<MisbehavingPublisher<Int, Never>, Never>()
        let child = MisbehavingPublisher<Int, Never>()
        let tracker = TrackingSubscriber<Int, Never>(initialDemand: nil)
        outer.flatMap(maxPublishers: .max(1)) { $0 }.subscribe(tracker)
        _ = outer.send(child)
        child.send(subscription: RecordingSubscription())
        child.send(completion: .finished)
        child.send(completion: .finished)
        #expect(outer.requests == [.max(1), .max(1), .max(1)])
        #expect(tracker.completion == nil)
    }

    @Test func aChildsFailureLeavesUpstreamAloneAndLetsReentrantValuesThrough() {
        let outer = ManualPublisher<MisbehavingPublisher<Int, S4Error>, S4Error>()
        let failing = MisbehavingPublisher<Int, S4Error>()
        let other = MisbehavingPublisher<Int, S4Error>()
        let tracker = TrackingSubscriber<Int, S4Error>(onEvent: { event in
            if case .completion = event { failing.send(9) }
        })
        outer.flatMap { $0 }.subscribe(tracker)
        _ = outer.send(failing)
        _ = outer.send(other)
        failing.send(subscription: RecordingSubscription())
        let otherSubscription = RecordingSubscription()
        other.send(subscription: otherSubscription)
        failing.send(completion: .failure(.boom))
        #expect(s4Failure(tracker) == .boom)
        #expect(otherSubscription.calls == [.request(.unlimited), .cancel])
        #expect(outer.cancelCount == 0, "upstream is not cancelled")
        #expect(tracker.values == [9], "sent while the failure was being delivered")
        failing.send(10)
        #expect(tracker.values == [9], "after it, nothing passes")
    }

    @Test func reflectsAsCombinesFlatMap() throws {
        let outer = MisbehavingPublisher<Int, Never>()
        let child = MisbehavingPublisher<Int, Never>()
        let tracker = TrackingSubscriber<Int, Never>()
        outer.flatMap { _ in child }.subscribe(tracker)
        let subscription = try #require(tracker.subscription)
        #expect((subscription as? any CustomReflectable)?.customMirror.children.isEmpty == true)
        let playground = (subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription
        #expect(playground as? String == "FlatMap")
        let outerSubscriberObject = try #require(outer.subscriber)
        let outerSubscriber = try #require(outerSubscriberObject as? any CustomCombineIdentifierConvertible)
        #expect(outerSubscriber.combineIdentifier == subscription.combineIdentifier)
        outer.send(0)
        let childSubscriberObject = try #require(child.subscriber)
        let childSubscriber = try #require(childSubscriberObject as? any CustomReflectable)
        let parent = childSubscriber.customMirror.children.first
        #expect(parent?.label == "parentSubscription")
        #expect(parent.map { String(describing: $0.value) } == subscription.combineIdentifier.description)
    }

    @Test func trapsWhenUpstreamFailsWhileItsChildrenAreCancelled() async {
        await #expect(processExitsWith: .failure) {
            let outer = MisbehavingPublisher<MisbehavingPublisher<Int, S4Error>, S4Error>()
            let child = MisbehavingPublisher<Int, S4Error>()
            outer.flatMap { $0 }.subscribe(TrackingSubscriber<Int, S4Error>())
            outer.send(subscription: RecordingSubscription())
            outer.send(child)
            child.send(subscription: CancelHookSubscription { outer.send(completion: .failure(.other)) })
            outer.send(completion: .failure(.boom))
        }
    }
}

/// A subscription that runs a closure when cancelled (to misbehave reentrantly).
private final class CancelHookSubscription: Subscription, @unchecked Sendable {
    private let onCancel: () -> Void

    init(onCancel: @escaping () -> Void) {
        self.onCancel = onCancel
    }

    func request(_ demand: Subscribers.Demand) {}

    func cancel() {
        onCancel()
    }
}
