/// What stands between a multicast's subject and one downstream subscriber, as in Combine: the downstream's
/// subscription is this "Multicast" object, not the subject's own. It forwards the first subscription's requests and
/// cancel, and turns the demand the downstream returns from a value into a request on that subscription (so a subject
/// that ignores returned demand still sees it). After a completion or a cancel it forwards nothing more.
internal final class MulticastInner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private enum State {
        case awaitingSubscription
        case subscribed(any Subscription)
        case terminal
    }

    /// A spin lock: the state is touched for a few instructions per event and never held across a call out.
    private let lock = SpinLock()
    private var state = State.awaitingSubscription
    private let downstream: Downstream

    init(downstream: Downstream) {
        self.downstream = downstream
    }

    var description: String { "Multicast" }

    var customMirror: Mirror { Mirror(self, children: []) }

    var playgroundDescription: Any { description }

    func receive(subscription: any Subscription) {
        lock.lock()
        guard case .awaitingSubscription = state else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state = .subscribed(subscription)
        lock.unlock()
        downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard case .subscribed(let subscription) = state else {
            lock.unlock()
            return .none
        }
        lock.unlock()
        let more = downstream.receive(input)
        if more > .none {
            subscription.request(more)
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard case .subscribed = state else {
            lock.unlock()
            return
        }
        state = .terminal
        lock.unlock()
        downstream.receive(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) {
        lock.lock()
        guard case .subscribed(let subscription) = state else {
            lock.unlock()
            return
        }
        lock.unlock()
        subscription.request(demand)
    }

    func cancel() {
        lock.lock()
        guard case .subscribed(let subscription) = state else {
            lock.unlock()
            return
        }
        state = .terminal
        lock.unlock()
        subscription.cancel()
    }
}
