/// Which of Combine's subjects a core stands behind: it names the subscriptions and picks the few rules that differ.
@usableFromInline
internal enum SubjectKind: UInt8, Sendable {
    case passthrough
    case currentValue
    /// A `@Published` property's subject: a current-value subject under another name.
    case published
    /// An `ObservableObjectPublisher`: a passthrough subject whose subscribers get every signal once they have asked
    /// for any, as in Combine.
    case observableObject

    /// The name Combine gives this subject's subscriptions.
    @usableFromInline
    internal var subscriptionName: String {
        switch self {
        case .passthrough: "PassthroughSubject"
        case .currentValue: "CurrentValueSubject"
        case .published: "PublishedSubject"
        case .observableObject: "ObservableObjectPublisher"
        }
    }
}

/// The state both subjects share: their subscribers in subscription order, the completion once sent, the upstream
/// subscriptions given through `send(subscription:)`, and for `CurrentValueSubject` the current value.
///
/// The subject classes hold one of these rather than inheriting from it, so that their public API stays final.
@usableFromInline
internal final class SubjectCore<Output, Failure: Error>: @unchecked Sendable {
    @usableFromInline internal let lock = Lock()
    @usableFromInline @exclusivity(unchecked) internal var conduits: ContiguousArray<SubjectConduit<Output, Failure>> =
        []
    @usableFromInline @exclusivity(unchecked) internal var completion: Subscribers.Completion<Failure>?
    @usableFromInline @exclusivity(unchecked) internal var upstreams: [any Subscription] = []
    /// Set once any subscriber has asked for values; from then on upstream subscriptions are asked for `.unlimited`.
    @usableFromInline @exclusivity(unchecked) internal var hasDownstreamDemand = false
    /// Only used by `CurrentValueSubject`; `nil` for `PassthroughSubject`.
    @usableFromInline @exclusivity(unchecked) internal var currentValue: Output?
    /// Whether this core keeps a current value (`CurrentValueSubject`, `@Published`); fixed at creation, so
    /// readable without the lock.
    @usableFromInline internal let isCurrentValue: Bool
    /// Which subject this is; fixed at creation.
    @usableFromInline internal let kind: SubjectKind

    @inlinable
    internal init(currentValue: Output?, kind: SubjectKind) {
        self.currentValue = currentValue
        self.kind = kind
        isCurrentValue = kind == .currentValue || kind == .published
    }

    /// Attaches a subscriber; a subscriber arriving after completion gets an empty subscription and the completion.
    /// The subscription keeps `owner` (the subject object) alive until it is cancelled or completed, as in Combine.
    @inlinable
    internal func attach<S: Subscriber>(_ subscriber: S, owner: AnyObject?)
    where S.Input == Output, S.Failure == Failure {
        lock.lock()
        if let completion {
            lock.unlock()
            subscriber.receive(subscription: Subscriptions.empty)
            subscriber.receive(completion: completion)
            return
        }
        let conduit = SubjectConduit<Output, Failure>(
            core: self,
            receiveValue: { subscriber.receive($0) },
            receiveCompletion: { subscriber.receive(completion: $0) },
            downstream: subscriber,
            kind: kind,
            owner: owner
        )
        conduits.append(conduit)
        lock.unlock()
        subscriber.receive(subscription: conduit)
    }

    /// Delivers a value to each subscriber in subscription order, working on a snapshot of the list so that
    /// subscribing or cancelling from inside a subscriber is safe.
    @inlinable
    internal func send(_ value: Output, updatingCurrentValue: Bool, storingAfterCompletion: Bool = false) {
        lock.lock()
        guard completion == nil else {
            // Combine's CurrentValueSubject still takes a value assigned after completion (not one sent); it only
            // delivers nothing.
            if storingAfterCompletion {
                currentValue = value
            }
            lock.unlock()
            return
        }
        if updatingCurrentValue {
            currentValue = value
        }
        if conduits.count == 1 {
            let only = conduits[0]
            lock.unlock()
            only.offer(value)
            return
        }
        let snapshot = conduits
        lock.unlock()
        for conduit in snapshot {
            conduit.offer(value)
        }
    }

    @inlinable
    internal func send(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard self.completion == nil else {
            lock.unlock()
            return
        }
        self.completion = completion
        let snapshot = conduits
        conduits = []
        lock.unlock()
        for conduit in snapshot {
            conduit.offer(completion: completion)
        }
    }

    @usableFromInline
    internal func send(subscription: any Subscription) {
        lock.lock()
        upstreams.append(subscription)
        // CurrentValueSubject asks at once, as Combine's does; PassthroughSubject waits for a subscriber's demand.
        let requestNow = hasDownstreamDemand || isCurrentValue
        lock.unlock()
        if requestNow {
            subscription.request(.unlimited)
        }
    }

    /// Called by a conduit on its first request: the subject then asks its upstreams for everything.
    @usableFromInline
    internal func downstreamDidRequest() {
        lock.lock()
        guard !hasDownstreamDemand else {
            lock.unlock()
            return
        }
        hasDownstreamDemand = true
        // A CurrentValueSubject asked its upstreams when it got them.
        let toRequest = isCurrentValue ? [] : upstreams
        lock.unlock()
        for upstream in toRequest {
            upstream.request(.unlimited)
        }
    }

    @usableFromInline
    internal func detach(_ conduit: SubjectConduit<Output, Failure>) {
        lock.lock()
        if let index = conduits.firstIndex(where: { $0 === conduit }) {
            conduits.remove(at: index)
        }
        lock.unlock()
    }

    /// The current value, read under the lock (for `CurrentValueSubject.value`).
    @inlinable
    internal var value: Output? {
        lock.lock()
        defer { lock.unlock() }
        return currentValue
    }

    /// Cancels the upstream subscriptions; the owning subject calls this from its deinit.
    @usableFromInline
    internal func cancelUpstreams() {
        lock.lock()
        let toCancel = upstreams
        upstreams = []
        lock.unlock()
        for upstream in toCancel {
            upstream.cancel()
        }
    }
}
