extension Publisher {
    /// Publishes a specific element, indicated by its index in the sequence of published elements.
    ///
    /// Earlier elements are dropped (each replaced by a request for one more); once the element is published, the
    /// publisher cancels upstream and finishes. `index` must be non-negative.
    public func output(at index: Int) -> Publishers.Output<Self> {
        precondition(index >= 0, "output(at:) needs a non-negative index")
        return output(in: index...index)
    }

    /// Publishes elements specified by their range in the sequence of published elements.
    ///
    /// The range is taken relative to `0..<Int.max`; after its last element the publisher cancels upstream and
    /// finishes.
    public func output<R: RangeExpression>(in range: R) -> Publishers.Output<Self> where R.Bound == Int {
        Publishers.Output(upstream: self, range: range.relative(to: 0..<Int.max))
    }

    /// Republishes elements up to the specified maximum count, then cancels upstream and finishes.
    ///
    /// The same as `output(in: 0..<maxLength)`, as in Combine. `maxLength` must be non-negative.
    public func prefix(_ maxLength: Int) -> Publishers.Output<Self> {
        precondition(maxLength >= 0, "prefix(_:) needs a non-negative length")
        return output(in: ..<maxLength)
    }
}

extension Publishers {
    /// A publisher that publishes elements specified by a range in the sequence of published elements.
    public struct Output<Upstream: Publisher>: Publisher {
        /// The upstream's element type.
        public typealias Output = Upstream.Output
        /// Fails only when the upstream fails.
        public typealias Failure = Upstream.Failure

        /// The publisher this publisher receives elements from.
        public let upstream: Upstream
        /// The indices of the elements to publish.
        public let range: CountableRange<Int>

        /// Creates a publisher that publishes the elements of `upstream` whose indices fall in `range`.
        public init(upstream: Upstream, range: CountableRange<Int>) {
            precondition(range.lowerBound >= 0, "Publishers.Output needs a non-negative lower bound")
            precondition(range.upperBound >= 0, "Publishers.Output needs a non-negative upper bound")
            self.upstream = upstream
            self.range = range
        }

        /// Attaches the subscriber through a selecting subscription.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, range: range))
        }
    }
}

extension Publishers.Output: Equatable where Upstream: Equatable {}

extension Publishers.Output {
    /// Forwards demand upstream as is; counts elements to skip the ones before the range and stop after it.
    private final class Inner<Downstream: Subscriber>: ElementFilterProducer<
        Downstream, Upstream.Output, Upstream.Failure
    >
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        private var remainingToSkip: Int
        private var remainingToSend: Int

        init(downstream: Downstream, range: CountableRange<Int>) {
            remainingToSkip = range.lowerBound
            remainingToSend = range.count
            super.init(downstream: downstream)
        }

        override var description: String { "Output" }

        /// Combine's answers to protocol violations for this operator.
        override var misuse: FilterMisuse {
            FilterMisuse(early: .valuesForwarded, ignoresEarlyCancel: true, forwardsLateValues: true)
        }

        override func process(_ input: Upstream.Output) -> FilterStep<Downstream.Input, Downstream.Failure> {
            if remainingToSkip > 0 {
                remainingToSkip -= 1
                return .skip
            }
            if remainingToSend == 0 {
                return .finish
            }
            remainingToSend -= 1
            return remainingToSend == 0 ? .sendAndFinish(input) : .send(input)
        }
    }
}
