extension Publisher {
    /// Handles a failure from upstream by replacing it with another publisher, which then supplies the rest of the
    /// stream (with whatever demand downstream still has outstanding).
    @inlinable
    public func `catch`<P: Publisher>(_ handler: @escaping (Failure) -> P) -> Publishers.Catch<Self, P>
    where Output == P.Output {
        Publishers.Catch(upstream: self, handler: handler)
    }
}

extension Publishers {
    /// A publisher that handles a failure from upstream by replacing upstream with another publisher.
    public struct Catch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
    where Upstream.Output == NewPublisher.Output {
        /// The shared output.
        public typealias Output = Upstream.Output
        /// The replacement's failure.
        public typealias Failure = NewPublisher.Failure

        /// The publisher this operator receives elements from.
        public let upstream: Upstream
        /// Makes the replacement publisher from upstream's failure.
        public let handler: (Upstream.Failure) -> NewPublisher

        /// Creates the operator; prefer `catch(_:)`.
        @inlinable
        public init(upstream: Upstream, handler: @escaping (Upstream.Failure) -> NewPublisher) {
            self.upstream = upstream
            self.handler = handler
        }

        /// Subscribes to upstream; on its failure, to the handler's publisher (Combine's rules: see `CatchPolicy`).
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let handler = self.handler
            let policy = CatchPolicy<Upstream.Failure, NewPublisher, S>(name: "Catch") { handler($0) }
            let storage = HandoverStorage(downstream: subscriber, policy: policy)
            upstream.subscribe(
                HandoverFirstInput<CatchPolicy<Upstream.Failure, NewPublisher, S>, Upstream.Failure>(
                    storage: storage))
        }
    }
}

/// catch and tryCatch, on the handover core, following Combine's recorded behaviour.
///
/// Before recovery, the downstream gets the subscription only once the upstream's has arrived, and the upstream's
/// values are counted against the downstream's demand: one beyond it, one before the subscription, and a second
/// failure while recovering are programming errors and trap, as in Combine. A failure runs the handler, whose
/// publisher is asked for whatever demand is still owed (a handler that throws ends the stream with its error). A
/// cancel while the replacement is being subscribed is ignored (the replacement is still asked for the owed demand
/// and its completion forwarded), and values that arrive after a cancel are still forwarded, with their demand
/// returned, as Combine does.
internal struct CatchPolicy<UpstreamFailure: Error, NewPublisher: Publisher, Downstream: Subscriber>: HandoverPolicy
where NewPublisher.Output == Downstream.Input {
    let name: String
    let makeReplacement: (UpstreamFailure) throws -> NewPublisher

    init(name: String, makeReplacement: @escaping (UpstreamFailure) throws -> NewPublisher) {
        self.name = name
        self.makeReplacement = makeReplacement
    }

    var rules: HandoverRules {
        HandoverRules(
            handsOverOnFailure: true, handovers: 1, trapsOnEarlyValue: true, firstSurplus: .trap,
            laterSurplus: .deliver, acceptsEarlyLaterValues: true, deliversLateValues: true, trapsOnStaleFailure: true,
            acceptsEarlyLaterCompletion: true, ignoresCancelWhileHandingOver: true)
    }

    var mirrorsDemand: Bool { true }

    func takeNext() -> (UpstreamFailure) throws -> NewPublisher { makeReplacement }

    func release() {}

    static func subscribe(
        _ next: (UpstreamFailure) throws -> NewPublisher, to storage: HandoverStorage<Self>, generation: Int,
        after failure: (any Error)?
    ) throws {
        // Only a failure hands over, and it is upstream's.
        // swiftlint:disable:next force_cast
        let replacement = try next(failure as! UpstreamFailure)
        replacement.subscribe(HandoverLaterInput<Self, NewPublisher.Failure>(storage: storage, generation: generation))
    }
}
