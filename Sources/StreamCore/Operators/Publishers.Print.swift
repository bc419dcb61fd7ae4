extension Publisher {
    /// Prints log messages for all publishing events.
    ///
    /// Lines use Combine's wording (`receive subscription: (…)`, `request max: (n)`, `receive value: (…)`,
    /// `receive finished`, `receive error: (…)`, `receive cancel`, and `… (synchronous)` for demand a value returned),
    /// each preceded by `prefix` and ": " when `prefix` is not empty. They go to `stream`, or to standard output.
    public func print(_ prefix: String = "", to stream: (any TextOutputStream)? = nil) -> Publishers.Print<Self> {
        Publishers.Print(upstream: self, prefix: prefix, to: stream)
    }
}

extension Publishers {
    /// A publisher that prints log messages for all publishing events, optionally prefixed with a given string.
    public struct Print<Upstream: Publisher>: Publisher {
        /// The upstream's element type.
        public typealias Output = Upstream.Output
        /// Fails only when the upstream fails.
        public typealias Failure = Upstream.Failure

        /// The publisher this publisher receives elements from.
        public let upstream: Upstream
        /// A string with which to prefix all log messages.
        public let prefix: String
        /// Where the lines go; standard output when nil.
        public let stream: (any TextOutputStream)?

        /// Creates a publisher that prints log messages for all publishing events.
        public init(upstream: Upstream, prefix: String, to stream: (any TextOutputStream)? = nil) {
            self.upstream = upstream
            self.prefix = prefix
            self.stream = stream
        }

        /// Attaches the subscriber through a logging subscription.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, prefix: prefix, stream: stream))
        }
    }
}

extension Publishers.Print {
    /// Logs and forwards every event. Like Combine's, it keeps no terminal state: it reports whatever it is sent.
    fileprivate final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        private let downstream: Downstream
        private let linePrefix: String
        /// Guards only the stream, so concurrent events never interleave inside a line.
        private let streamLock = Lock()
        private var stream: (any TextOutputStream)?
        private let lock = Lock()
        private var upstreamSubscription: (any Subscription)?
        /// Set by the first subscription and never cleared.
        private var subscribed = false

        init(downstream: Downstream, prefix: String, stream: (any TextOutputStream)?) {
            self.downstream = downstream
            self.linePrefix = prefix.isEmpty ? "" : prefix + ": "
            self.stream = stream
        }

        var description: String { "Print" }

        /// A second subscription (even after a cancel) is logged and cancelled, as in Combine.
        func receive(subscription: any Subscription) {
            log("receive subscription: (\(subscription))")
            lock.lock()
            guard !subscribed else {
                lock.unlock()
                subscription.cancel()
                return
            }
            subscribed = true
            upstreamSubscription = subscription
            lock.unlock()
            downstream.receive(subscription: self)
        }

        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            log("receive value: (\(input))")
            let demand = downstream.receive(input)
            if demand != .none {
                log(Self.describe(demand) + " (synchronous)")
            }
            return demand
        }

        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            switch completion {
            case .finished:
                log("receive finished")
            case .failure(let error):
                log("receive error: (\(error))")
            }
            downstream.receive(completion: completion)
        }

        func request(_ demand: Subscribers.Demand) {
            log(Self.describe(demand))
            lock.lock()
            let subscription = upstreamSubscription
            lock.unlock()
            subscription?.request(demand)
        }

        func cancel() {
            log("receive cancel")
            lock.lock()
            let subscription = upstreamSubscription
            upstreamSubscription = nil
            lock.unlock()
            subscription?.cancel()
        }

        private static func describe(_ demand: Subscribers.Demand) -> String {
            if let max = demand.max {
                return "request max: (\(max))"
            }
            return "request unlimited"
        }

        /// One line, written as Combine's `print(_:to:)` call writes it: a stream sees the same three `write` calls
        /// (the empty separator before the only item, the line, then the newline).
        private func log(_ message: String) {
            let line = linePrefix + message
            streamLock.lock()
            defer { streamLock.unlock() }
            if stream != nil {
                stream!.write("")
                stream!.write(line)
                stream!.write("\n")
            } else {
                Swift.print(line)
            }
        }
    }
}

extension Publishers.Print.Inner: CustomReflectable, CustomPlaygroundDisplayConvertible {
    /// No children, as in Combine.
    var customMirror: Mirror { Mirror(self, children: []) }

    /// "Print".
    var playgroundDescription: Any { description }
}
