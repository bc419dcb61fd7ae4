#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension Publisher {
    /// Raises a debugger signal (SIGTRAP) when a provided closure needs to stop the process in the debugger.
    ///
    /// Each closure is asked about its event before the event is passed on; returning true raises SIGTRAP in the
    /// calling thread. Without a debugger attached, SIGTRAP's default action ends the process, as on Apple platforms.
    public func breakpoint(
        receiveSubscription: ((any Subscription) -> Bool)? = nil,
        receiveOutput: ((Output) -> Bool)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)? = nil
    ) -> Publishers.Breakpoint<Self> {
        Publishers.Breakpoint(
            upstream: self,
            receiveSubscription: receiveSubscription,
            receiveOutput: receiveOutput,
            receiveCompletion: receiveCompletion
        )
    }

    /// Raises a debugger signal upon receiving a failure.
    public func breakpointOnError() -> Publishers.Breakpoint<Self> {
        breakpoint(receiveCompletion: { completion in
            if case .failure = completion { return true }
            return false
        })
    }
}

extension Publishers {
    /// A publisher that raises a debugger signal when a provided closure needs to stop the process in the debugger.
    public struct Breakpoint<Upstream: Publisher>: Publisher {
        /// The upstream's element type.
        public typealias Output = Upstream.Output
        /// Fails only when the upstream fails.
        public typealias Failure = Upstream.Failure

        /// The publisher this publisher receives elements from.
        public let upstream: Upstream
        /// Decides whether to stop when the subscription arrives.
        public let receiveSubscription: ((any Subscription) -> Bool)?
        /// Decides whether to stop when a value arrives.
        public let receiveOutput: ((Upstream.Output) -> Bool)?
        /// Decides whether to stop when the completion arrives.
        public let receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Bool)?

        /// Creates a breakpoint publisher with the provided upstream publisher and breakpoint-raising closures.
        public init(
            upstream: Upstream,
            receiveSubscription: ((any Subscription) -> Bool)? = nil,
            receiveOutput: ((Upstream.Output) -> Bool)? = nil,
            receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Bool)? = nil
        ) {
            self.upstream = upstream
            self.receiveSubscription = receiveSubscription
            self.receiveOutput = receiveOutput
            self.receiveCompletion = receiveCompletion
        }

        /// Attaches the subscriber behind a forwarder that consults the closures.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, publisher: self))
        }
    }
}

/// Stops in the debugger the way Combine does: by raising SIGTRAP in the current thread.
internal func raiseBreakpointSignal() {
    _ = raise(SIGTRAP)
}

extension Publishers.Breakpoint {
    fileprivate struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        let downstream: Downstream
        let publisher: Publishers.Breakpoint<Upstream>
        let combineIdentifier = CombineIdentifier()

        var description: String { "Breakpoint" }

        func receive(subscription: any Subscription) {
            if publisher.receiveSubscription?(subscription) == true {
                raiseBreakpointSignal()
            }
            downstream.receive(subscription: subscription)
        }

        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            if publisher.receiveOutput?(input) == true {
                raiseBreakpointSignal()
            }
            return downstream.receive(input)
        }

        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            if publisher.receiveCompletion?(completion) == true {
                raiseBreakpointSignal()
            }
            downstream.receive(completion: completion)
        }
    }
}

extension Publishers.Breakpoint.Inner: CustomReflectable, CustomPlaygroundDisplayConvertible {
    /// No children, as in Combine.
    var customMirror: Mirror { Mirror(self, children: []) }

    /// "Breakpoint".
    var playgroundDescription: Any { description }
}
