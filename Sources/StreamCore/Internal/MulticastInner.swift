/// What stands between a multicast's subject and one downstream subscriber, as in Combine: the downstream's
/// subscription is this "Multicast" object, not the subject's own. It forwards the first subscription's requests and
/// cancel, and turns the demand the downstream returns from a value into a request on that subscription (so a subject
/// that ignores returned demand still sees it). After a completion or a cancel it forwards nothing more.
internal final class MulticastInner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    /// A spin lock: the state is touched for a few instructions per event and never held across a call out.
    private let lock = SpinLock()
    private var upstream = UpstreamLifecycle()
    private let downstream: Downstream

    init(downstream: Downstream) {
        self.downstream = downstream
    }

    var description: String { "Multicast" }

    var customMirror: Mirror { Mirror(self, children: []) }

    var playgroundDescription: Any { description }

    func receive(subscription: any Subscription) {
        lock.lock()
        let attached = upstream.attach(subscription)
        lock.unlock()
        guard attached else {
            subscription.cancel()
            return
        }
        downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        let subscription = upstream.live
        lock.unlock()
        guard let subscription else { return .none }
        let more = downstream.receive(input)
        if more > .none {
            subscription.request(more)
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        let passes = upstream.complete()
        lock.unlock()
        if passes { downstream.receive(completion: completion) }
    }

    func request(_ demand: Subscribers.Demand) {
        lock.lock()
        let subscription = upstream.live
        lock.unlock()
        subscription?.request(demand)
    }

    func cancel() {
        lock.lock()
        let subscription = upstream.cancel()
        lock.unlock()
        subscription?.cancel()
    }
}
