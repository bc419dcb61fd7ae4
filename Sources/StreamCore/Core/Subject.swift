/// A publisher that exposes a method for outside callers to publish elements.
///
/// Subjects deliver to their subscribers in subscription order (a rule we define where Combine leaves it open).
public protocol Subject<Output, Failure>: AnyObject, Publisher {
    /// Sends a value to the subscribers.
    func send(_ value: Output)
    /// Sends a completion signal to the subscribers.
    func send(completion: Subscribers.Completion<Failure>)
    /// Provides this subject with an upstream subscription, as `Publisher.subscribe(_:)` with a subject does.
    func send(subscription: any Subscription)
}

extension Subject where Output == Void {
    /// Sends a `Void` value to the subscribers.
    public func send() {
        send(())
    }
}

/// The subscriber that `Publisher.subscribe(_:)` attaches when the downstream is a subject:
/// it forwards everything to the subject and asks upstream for unlimited values once the subject has its subscription.
internal final class SubjectSubscriber<Downstream: Subject>: Subscriber, Cancellable, CustomStringConvertible {
    typealias Input = Downstream.Output
    typealias Failure = Downstream.Failure

    private let lock = Lock()
    private var downstreamSubject: Downstream?
    private var upstreamSubscription: (any Subscription)?

    init(_ subject: Downstream) {
        downstreamSubject = subject
    }

    var description: String { "Subject" }

    func receive(subscription: any Subscription) {
        lock.lock()
        guard upstreamSubscription == nil, let subject = downstreamSubject else {
            lock.unlock()
            subscription.cancel()
            return
        }
        upstreamSubscription = subscription
        lock.unlock()
        subject.send(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        let subject = downstreamSubject
        lock.unlock()
        subject?.send(input)
        return .none
    }

    /// A completion before the subscription is ignored, as in Combine.
    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard upstreamSubscription != nil else {
            lock.unlock()
            return
        }
        let subject = downstreamSubject
        downstreamSubject = nil
        upstreamSubscription = nil
        lock.unlock()
        subject?.send(completion: completion)
    }

    func cancel() {
        lock.lock()
        let subscription = upstreamSubscription
        upstreamSubscription = nil
        // Released after unlocking: dropping the last reference runs the subject's deinit, which cancels its upstreams,
        // this subscriber included, and would deadlock on this lock.
        let subject = downstreamSubject
        downstreamSubject = nil
        lock.unlock()
        subscription?.cancel()
        withExtendedLifetime(subject) {}
    }
}

extension SubjectSubscriber: Subscription {
    func request(_ demand: Subscribers.Demand) {
        lock.lock()
        let subscription = upstreamSubscription
        lock.unlock()
        subscription?.request(demand)
    }
}
