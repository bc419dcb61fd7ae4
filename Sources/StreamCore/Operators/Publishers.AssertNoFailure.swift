extension Publisher {
    /// Raises a fatal error when its upstream publisher fails, and otherwise republishes all received input.
    ///
    /// The message is the error, preceded by `prefix` and ": " when `prefix` is not empty, reported at `file`/`line`.
    public func assertNoFailure(
        _ prefix: String = "",
        file: StaticString = #file,
        line: UInt = #line
    ) -> Publishers.AssertNoFailure<Self> {
        Publishers.AssertNoFailure(upstream: self, prefix: prefix, file: file, line: line)
    }
}

extension Publishers {
    /// A publisher that raises a fatal error upon receiving any failure, and otherwise republishes all received input.
    public struct AssertNoFailure<Upstream: Publisher>: Publisher {
        /// The upstream's element type.
        public typealias Output = Upstream.Output
        /// A failure traps instead of being published.
        public typealias Failure = Never

        /// The publisher this publisher receives elements from.
        public let upstream: Upstream
        /// The string used at the beginning of the fatal error message.
        public let prefix: String
        /// The filename used in the error message.
        public let file: StaticString
        /// The line number used in the error message.
        public let line: UInt

        /// Creates a publisher that traps if `upstream` fails.
        public init(upstream: Upstream, prefix: String, file: StaticString, line: UInt) {
            self.upstream = upstream
            self.prefix = prefix
            self.file = file
            self.line = line
        }

        /// Attaches the subscriber behind a forwarder that traps on failure.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, prefix: prefix, file: file, line: line))
        }
    }
}

/// The fatal-error message `assertNoFailure` reports: the prefix and ": " when a prefix is given, then the error.
internal func assertNoFailureMessage(prefix: String, error: some Error) -> String {
    prefix.isEmpty ? "\(error)" : "\(prefix): \(error)"
}

extension Publishers.AssertNoFailure {
    fileprivate struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Never {
        typealias Input = Upstream.Output

        let downstream: Downstream
        let prefix: String
        let file: StaticString
        let line: UInt
        let combineIdentifier = CombineIdentifier()

        var description: String { "AssertNoFailure" }

        func receive(subscription: any Subscription) {
            downstream.receive(subscription: subscription)
        }

        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            downstream.receive(input)
        }

        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            switch completion {
            case .finished:
                downstream.receive(completion: .finished)
            case .failure(let error):
                fatalError(assertNoFailureMessage(prefix: prefix, error: error), file: file, line: line)
            }
        }
    }
}

extension Publishers.AssertNoFailure.Inner: CustomReflectable, CustomPlaygroundDisplayConvertible {
    /// Where the assertion was written and its message prefix, as in Combine.
    var customMirror: Mirror { Mirror(self, children: ["file": file, "line": line, "prefix": prefix]) }

    /// "AssertNoFailure".
    var playgroundDescription: Any { description }
}
