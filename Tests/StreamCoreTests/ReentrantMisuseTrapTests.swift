import StreamCore
import StreamTesting
import Testing

/// A subscription that calls `onRequest` from inside its first `request`, as a misbehaving upstream might.
private final class CallingBackSubscription: Subscription {
    private var calledBack = false
    private let onRequest: () -> Void

    init(onRequest: @escaping () -> Void) {
        self.onRequest = onRequest
    }

    func request(_ demand: Subscribers.Demand) {
        // Once only, so that without a trap the test ends instead of recursing without bound.
        guard !calledBack else { return }
        calledBack = true
        onRequest()
    }

    func cancel() {}
}

/// Reentrant misuses Combine's locks catch (the lock would be taken twice on one thread), and StreamCore traps on
/// too. Each runs in a child process (an exit test).
@Suite struct ReentrantMisuseTrapTests {
    @Test func subscribeOnTrapsOnARequestFromInsideItsUpstreamsRequest() async {
        await #expect(processExitsWith: .failure) {
            let upstream = MisbehavingPublisher<Int, Never>()
            let tracking = TrackingSubscriber<Int, Never>(initialDemand: nil)
            upstream.subscribe(on: ImmediateScheduler.shared).subscribe(tracking)
            upstream.send(subscription: CallingBackSubscription { tracking.request(.max(1)) })
            tracking.request(.max(1))
        }
    }

    @Test func subscribeOnPassesOnARequestThatIsNotReentrant() {
        let upstream = ManualPublisher<Int, Never>()
        let tracking = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
        upstream.subscribe(on: ImmediateScheduler.shared).subscribe(tracking)
        tracking.request(.max(2))
        #expect(upstream.requests == [.max(1), .max(2)])
    }

    @Test func timeoutTrapsOnASchedulerThatRunsItsTimerAtOnce() async {
        await #expect(processExitsWith: .failure) {
            let upstream = PassthroughSubject<Int, Never>()
            upstream.timeout(.seconds(1), scheduler: ImmediateScheduler.shared).subscribe(
                TrackingSubscriber<Int, Never>())
        }
    }
}
