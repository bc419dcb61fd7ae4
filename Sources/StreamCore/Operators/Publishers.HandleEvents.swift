extension Publisher {
    /// Performs the specified closures when publisher events occur.
    ///
    /// Each closure runs before its event is passed on: `receiveSubscription` before the downstream gets the
    /// subscription, `receiveOutput` before it gets a value, `receiveRequest` before a request goes upstream (and for
    /// demand the downstream returns from a value), `receiveCancel` before upstream is cancelled. The closures are
    /// released once the stream completes or is cancelled.
    public func handleEvents(
        receiveSubscription: ((any Subscription) -> Void)? = nil,
        receiveOutput: ((Output) -> Void)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil,
        receiveCancel: (() -> Void)? = nil,
        receiveRequest: ((Subscribers.Demand) -> Void)? = nil
    ) -> Publishers.HandleEvents<Self> {
        Publishers.HandleEvents(
            upstream: self,
            receiveSubscription: receiveSubscription,
            receiveOutput: receiveOutput,
            receiveCompletion: receiveCompletion,
            receiveCancel: receiveCancel,
            receiveRequest: receiveRequest
        )
    }
}

extension Publishers {
    /// A publisher that performs the specified closures when publisher events occur.
    public struct HandleEvents<Upstream: Publisher>: Publisher {
        /// The upstream's element type.
        public typealias Output = Upstream.Output
        /// Fails only when the upstream fails.
        public typealias Failure = Upstream.Failure

        /// The publisher this publisher receives elements from.
        public let upstream: Upstream
        /// Runs when the subscription arrives.
        public var receiveSubscription: ((any Subscription) -> Void)?
        /// Runs for every value.
        public var receiveOutput: ((Upstream.Output) -> Void)?
        /// Runs when the upstream completes.
        public var receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Void)?
        /// Runs when the downstream cancels.
        public var receiveCancel: (() -> Void)?
        /// Runs for every demand passed upstream.
        public var receiveRequest: ((Subscribers.Demand) -> Void)?

        /// Creates a publisher that runs the given closures on `upstream`'s events.
        public init(
            upstream: Upstream,
            receiveSubscription: ((any Subscription) -> Void)? = nil,
            receiveOutput: ((Output) -> Void)? = nil,
            receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil,
            receiveCancel: (() -> Void)? = nil,
            receiveRequest: ((Subscribers.Demand) -> Void)?
        ) {
            self.upstream = upstream
            self.receiveSubscription = receiveSubscription
            self.receiveOutput = receiveOutput
            self.receiveCompletion = receiveCompletion
            self.receiveCancel = receiveCancel
            self.receiveRequest = receiveRequest
        }

        /// Attaches the subscriber through an observing subscription.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, events: self))
        }
    }
}

extension Publishers.HandleEvents {
    fileprivate final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        /// Combine's handleEvents is a pass-through: values and completions reach the downstream whatever the state
        /// (before the subscription, after a completion or a cancel), and the closures see every event until the
        /// first completion or cancel. The state only decides which subscription requests and cancels go to.
        private enum State {
            case awaitingSubscription
            case subscribed(any Subscription)
            case cancelled
        }

        private let lock = Lock()
        private var state = State.awaitingSubscription
        /// The closures; dropped at the end of the stream so whatever they capture is freed then.
        private var events: Publishers.HandleEvents<Upstream>?
        private let downstream: Downstream

        init(downstream: Downstream, events: Publishers.HandleEvents<Upstream>) {
            self.downstream = downstream
            self.events = events
        }

        var description: String { "HandleEvents" }

        func receive(subscription: any Subscription) {
            lock.lock()
            let handler = events?.receiveSubscription
            guard case .awaitingSubscription = state else {
                lock.unlock()
                handler?(subscription)
                subscription.cancel()
                return
            }
            state = .subscribed(subscription)
            lock.unlock()
            handler?(subscription)
            downstream.receive(subscription: self)
        }

        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            lock.lock()
            let handler = events?.receiveOutput
            lock.unlock()
            handler?(input)
            let demand = downstream.receive(input)
            if demand != .none {
                lock.lock()
                let requestHandler = events?.receiveRequest
                lock.unlock()
                requestHandler?(demand)
            }
            return demand
        }

        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            lock.lock()
            let handler = events?.receiveCompletion
            events = nil
            lock.unlock()
            handler?(completion)
            downstream.receive(completion: completion)
        }

        /// Like Combine's, reports and forwards any demand, `.none` included; the upstream decides whether that traps.
        /// Before the subscription it is only reported.
        func request(_ demand: Subscribers.Demand) {
            lock.lock()
            let subscription: (any Subscription)?
            switch state {
            case .subscribed(let current): subscription = current
            case .awaitingSubscription: subscription = nil
            case .cancelled:
                lock.unlock()
                return
            }
            let handler = events?.receiveRequest
            lock.unlock()
            handler?(demand)
            subscription?.request(demand)
        }

        /// Reported once; before the subscription it is only reported, and the subscription is still taken later.
        func cancel() {
            lock.lock()
            let subscription: (any Subscription)?
            let handler: (() -> Void)?
            switch state {
            case .subscribed(let current):
                subscription = current
                state = .cancelled
                handler = events?.receiveCancel
                events = nil
            case .awaitingSubscription:
                subscription = nil
                handler = events?.receiveCancel
            case .cancelled:
                lock.unlock()
                return
            }
            lock.unlock()
            handler?()
            subscription?.cancel()
        }
    }
}

extension Publishers.HandleEvents.Inner: CustomReflectable, CustomPlaygroundDisplayConvertible {
    /// No children, as in Combine.
    var customMirror: Mirror { Mirror(self, children: []) }

    /// "HandleEvents".
    var playgroundDescription: Any { description }
}
