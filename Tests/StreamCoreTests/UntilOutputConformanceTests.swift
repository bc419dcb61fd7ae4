import StreamCore
import StreamTesting
import Testing

/// The number of completions a tracking subscriber received (Combine's drop(untilOutputFrom:) may send several).
private func completionCount<Input, Failure: Error>(_ tracker: TrackingSubscriber<Input, Failure>) -> Int {
    tracker.events.filter { event in
        if case .completion = event { return true }
        return false
    }.count
}

/// drop(untilOutputFrom:) as Combine records it: one object is the subscription and upstream's subscriber, completions
/// pass each time they come, only a cancel closes it, and the trigger's subscription is let go after its value.
@Suite struct DropUntilOutputConformanceTests {
    @Test func forwardsEveryCompletionAndOpensEvenAfterTheTriggerFinished() {
        let upstream = MisbehavingPublisher<Int, S4Error>()
        let trigger = MisbehavingPublisher<Void, S4Error>()
        let tracker = TrackingSubscriber<Int, S4Error>(initialDemand: .max(10), demandAfterValue: { _ in .max(1) })
        upstream.drop(untilOutputFrom: trigger).subscribe(tracker)
        #expect(tracker.subscriptionCount == 1, "the subscription goes downstream before either upstream answers")
        let triggerSubscription = RecordingSubscription()
        let upstreamSubscription = RecordingSubscription()
        trigger.send(subscription: triggerSubscription)
        upstream.send(subscription: upstreamSubscription)
        #expect(upstreamSubscription.calls == [.request(.max(10))], "the demand asked early is forwarded at once")
        #expect(upstream.send(1) == .none)
        trigger.send(completion: .finished)
        trigger.send(completion: .finished)
        #expect(completionCount(tracker) == 2)
        #expect(upstreamSubscription.calls == [.request(.max(10)), .cancel])
        #expect(triggerSubscription.calls == [.request(.max(1))])
        trigger.send(())
        #expect(upstream.send(2) == .max(1))
        #expect(tracker.values == [2])
    }

    @Test func letsTheTriggerGoAfterItsValueAndCancelsUpstreamFirst() {
        let upstream = MisbehavingPublisher<Int, Never>()
        let trigger = MisbehavingPublisher<Int, Never>()
        let tracker = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
        upstream.drop(untilOutputFrom: trigger).subscribe(tracker)
        let first = RecordingSubscription()
        let second = RecordingSubscription()
        trigger.send(subscription: first)
        trigger.send(subscription: second)
        #expect(second.calls == [.cancel])
        #expect(trigger.send(7) == .none)
        let third = RecordingSubscription()
        trigger.send(subscription: third)
        #expect(third.calls == [.request(.max(1))], "a trigger subscription after the value is taken again")
        let upstreamSubscription = RecordingSubscription()
        upstream.send(subscription: upstreamSubscription)
        tracker.cancel()
        tracker.cancel()
        #expect(upstreamSubscription.calls == [.request(.max(2)), .cancel])
        #expect(third.calls == [.request(.max(1)), .cancel])
        #expect(first.calls == [.request(.max(1))])
        let late = RecordingSubscription()
        upstream.send(subscription: late)
        #expect(late.calls == [.cancel])
    }

    @Test func isOneObjectWithTheTriggersIdentifierAndCombinesReflection() throws {
        let upstream = MisbehavingPublisher<Int, Never>()
        let trigger = MisbehavingPublisher<Int, Never>()
        let tracker = TrackingSubscriber<Int, Never>()
        upstream.drop(untilOutputFrom: trigger).subscribe(tracker)
        let subscription = try #require(tracker.subscription)
        let upstreamSubscriber = try #require(upstream.subscriber as? any Subscription)
        #expect(upstreamSubscriber.combineIdentifier == subscription.combineIdentifier)
        let triggerSubscriberObject = try #require(trigger.subscriber)
        let triggerSubscriber = try #require(triggerSubscriberObject as? any CustomCombineIdentifierConvertible)
        #expect(triggerSubscriber.combineIdentifier == subscription.combineIdentifier)
        for part in [subscription as Any, triggerSubscriber as Any] {
            #expect((part as? any CustomStringConvertible)?.description == "DropUntilOutput")
            #expect((part as? any CustomReflectable)?.customMirror.children.isEmpty == true)
            let playground = (part as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription
            #expect(playground as? String == "DropUntilOutput")
        }
    }

    @Test func trapsOnAValueBeyondItsDemand() async {
        await #expect(processExitsWith: .failure) {
            let upstream = MisbehavingPublisher<Int, Never>()
            let tracker = TrackingSubscriber<Int, Never>(initialDemand: nil)
            upstream.drop(untilOutputFrom: Empty<Void, Never>()).subscribe(tracker)
            upstream.send(subscription: RecordingSubscription())
            upstream.send(1)
        }
    }
}

/// prefix(untilOutputFrom:) as Combine records it: the subscription goes downstream only with upstream's, the
/// trigger's subscription is left alone after its value, and its subscription has no custom reflection.
@Suite struct PrefixUntilOutputConformanceTests {
    @Test func aTriggerBeforeUpstreamFinishesWithoutASubscription() {
        let upstream = MisbehavingPublisher<Int, Never>()
        let trigger = MisbehavingPublisher<Void, S4Error>()
        let tracker = TrackingSubscriber<Int, Never>()
        upstream.prefix(untilOutputFrom: trigger).subscribe(tracker)
        let triggerSubscription = RecordingSubscription()
        trigger.send(subscription: triggerSubscription)
        #expect(tracker.events.isEmpty)
        #expect(trigger.send(()) == .none)
        #expect(tracker.isFinished)
        #expect(tracker.subscriptionCount == 0)
        let upstreamSubscription = RecordingSubscription()
        upstream.send(subscription: upstreamSubscription)
        #expect(upstreamSubscription.calls == [.cancel])
        #expect(triggerSubscription.calls == [.request(.max(1))], "not cancelled after its value")
    }

    @Test func ignoresTheTriggerOnceItCompletedAndValuesBeforeTheSubscription() throws {
        let upstream = MisbehavingPublisher<Int, Never>()
        let trigger = MisbehavingPublisher<Void, Never>()
        let tracker = TrackingSubscriber<Int, Never>(demandAfterValue: { _ in .max(2) })
        upstream.prefix(untilOutputFrom: trigger).subscribe(tracker)
        trigger.send(subscription: RecordingSubscription())
        #expect(upstream.send(1) == .none, "no subscription yet: the value is ignored")
        trigger.send(completion: .finished)
        trigger.send(())
        let upstreamSubscription = RecordingSubscription()
        upstream.send(subscription: upstreamSubscription)
        #expect(upstreamSubscription.calls == [.request(.unlimited)])
        #expect(upstream.send(2) == .max(2))
        #expect(tracker.values == [2])
        #expect(tracker.completion == nil)
        let subscription = try #require(tracker.subscription)
        #expect(!(subscription is any CustomStringConvertible))
        #expect(!(subscription is any CustomReflectable))
        #expect(String(describing: subscription).contains("PrefixUntilOutput"))
        let triggerSubscriberObject = try #require(trigger.subscriber)
        let triggerSubscriber = try #require(triggerSubscriberObject as? any CustomCombineIdentifierConvertible)
        #expect(triggerSubscriber.combineIdentifier == subscription.combineIdentifier)
    }

    @Test func anUpstreamCompletionBeforeItsSubscriptionOnlyCancelsTheTrigger() {
        let upstream = MisbehavingPublisher<Int, Never>()
        let trigger = MisbehavingPublisher<Void, Never>()
        let tracker = TrackingSubscriber<Int, Never>()
        upstream.prefix(untilOutputFrom: trigger).subscribe(tracker)
        let triggerSubscription = RecordingSubscription()
        trigger.send(subscription: triggerSubscription)
        upstream.send(completion: .finished)
        #expect(tracker.events.isEmpty)
        #expect(triggerSubscription.calls == [.request(.max(1)), .cancel])
    }
}
