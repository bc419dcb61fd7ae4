import StreamCore
import StreamTesting
import Testing

/// switchToLatest as Combine records it: upstream's failure closes nothing, upstream's completions pass each time, one
/// object is the subscription and upstream's subscriber, and misbehaving inner publishers trap.
@Suite struct SwitchToLatestConformanceTests {
    @Test func upstreamsFailureCancelsTheInnerButClosesNothing() throws {
        let outer = MisbehavingPublisher<ManualPublisher<Int, S4Error>, S4Error>()
        let inner = ManualPublisher<Int, S4Error>(keepsSubscriberAfterCancel: true)
        let tracker = TrackingSubscriber<Int, S4Error>(demandAfterValue: { _ in .max(1) })
        outer.switchToLatest().subscribe(tracker)
        let outerSubscription = RecordingSubscription()
        outer.send(subscription: outerSubscription)
        outer.send(inner)
        outer.send(completion: .failure(.boom))
        #expect(inner.cancelCount == 1)
        #expect(outerSubscription.calls == [.request(.unlimited)], "upstream is not cancelled")
        let innerSubscription = try #require(inner.subscription)
        #expect(
            innerSubscription.send(5) == .max(1), "the cancelled inner publisher's values still pass, as in Combine")
        innerSubscription.send(completion: .finished)
        #expect(tracker.values == [5])
        #expect(s4Failure(tracker) == .boom)
        #expect(tracker.events.count == 3, "the inner completion is ignored")
    }

    @Test func upstreamsCompletionsPassEachTimeWhileNoInnerIsLive() {
        let outer = MisbehavingPublisher<ManualPublisher<Int, S4Error>, S4Error>()
        let tracker = TrackingSubscriber<Int, S4Error>()
        outer.switchToLatest().subscribe(tracker)
        outer.send(subscription: RecordingSubscription())
        outer.send(completion: .finished)
        outer.send(completion: .failure(.boom))
        #expect(tracker.events.count == 3)
        let late = ManualPublisher<Int, S4Error>()
        outer.send(late)
        #expect(late.subscriptions.isEmpty, "no inner publisher after upstream's completion")
    }

    @Test func aFinishedInnersLateSubscriptionIsNeitherKeptNorCancelled() throws {
        let outer = MisbehavingPublisher<MisbehavingPublisher<Int, S4Error>, S4Error>()
        let inner = MisbehavingPublisher<Int, S4Error>()
        let tracker = TrackingSubscriber<Int, S4Error>()
        outer.switchToLatest().subscribe(tracker)
        outer.send(subscription: RecordingSubscription())
        outer.send(inner)
        let first = RecordingSubscription()
        let second = RecordingSubscription()
        inner.send(subscription: first)
        inner.send(subscription: second)
        #expect(first.calls == [.request(.unlimited)])
        #expect(second.calls == [.cancel])
        inner.send(completion: .finished)
        let late = RecordingSubscription()
        inner.send(subscription: late)
        #expect(late.calls.isEmpty)
    }

    @Test func isOneObjectAndItsInnerSubscriberNamesIt() throws {
        let outer = MisbehavingPublisher<MisbehavingPublisher<Int, S4Error>, S4Error>()
        let inner = MisbehavingPublisher<Int, S4Error>()
        let tracker = TrackingSubscriber<Int, S4Error>()
        outer.switchToLatest().subscribe(tracker)
        let subscription = try #require(tracker.subscription)
        let outerSubscriber = try #require(outer.subscriber as? any Subscription)
        #expect(outerSubscriber.combineIdentifier == subscription.combineIdentifier)
        outer.send(inner)
        let innerSubscriberObject = try #require(inner.subscriber)
        let innerSubscriber = try #require(innerSubscriberObject as? any CustomReflectable)
        #expect(!(innerSubscriber is any Subscription))
        let parent = innerSubscriber.customMirror.children.first
        #expect(parent?.label == "parentSubscription")
        #expect(parent.map { String(describing: $0.value) } == subscription.combineIdentifier.description)
        #expect((innerSubscriber as? any CustomStringConvertible)?.description == "SwitchToLatest")
    }

    @Test func trapsOnAnInnerValueBeyondDemand() async {
        await #expect(processExitsWith: .failure) {
            let outer = MisbehavingPublisher<MisbehavingPublisher<Int, Never>, Never>()
            let inner = MisbehavingPublisher<Int, Never>()
            outer.switchToLatest().subscribe(TrackingSubscriber<Int, Never>(initialDemand: nil))
            outer.send(inner)
            inner.send(subscription: RecordingSubscription())
            inner.send(1)
        }
    }

    @Test func trapsOnAnInnerCompletionBeforeItsSubscription() async {
        await #expect(processExitsWith: .failure) {
            let outer = MisbehavingPublisher<MisbehavingPublisher<Int, Never>, Never>()
            let inner = MisbehavingPublisher<Int, Never>()
            outer.switchToLatest().subscribe(TrackingSubscriber<Int, Never>())
            outer.send(inner)
            inner.send(completion: .finished)
        }
    }
}
