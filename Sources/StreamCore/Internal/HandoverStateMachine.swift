/// How a handover operator answers the cases where catch, append/prepend and retry differ in Combine (as OpenCombine's
/// conformance suite records it). Read on the delivery path only where a value breaks the protocol.
internal struct HandoverRules {
    /// What a value beyond the downstream's demand does.
    internal enum Surplus {
        /// A precondition failure: the upstream broke the protocol.
        case trap
        /// Dropped, its demand not returned (a reentrant upstream cannot overrun the downstream).
        case drop
        /// Delivered anyway.
        case deliver
    }

    /// A completion (a failure for catch and retry, `.finished` for append) hands over to the next source.
    internal var handsOverOnFailure: Bool
    /// How many handovers there may be; nil for no limit.
    internal var handovers: Int?
    /// A value before the first subscription traps (otherwise it is ignored).
    internal var trapsOnEarlyValue: Bool
    /// A value beyond demand from the first source, and from a later one.
    internal var firstSurplus: Surplus
    internal var laterSurplus: Surplus
    /// A later source's values count before its subscription arrives (otherwise they are ignored).
    internal var acceptsEarlyLaterValues = false
    /// Values still pass after a cancel or the end, and from a source already handed over from.
    internal var deliversLateValues = false
    /// A failure from a source already handed over from traps.
    internal var trapsOnStaleFailure = false
    /// A completion before the source's subscription counts, for the first source and for a later one.
    internal var acceptsEarlyFirstCompletion = false
    internal var acceptsEarlyLaterCompletion = false
    /// A cancel before the first subscription ends the stream (otherwise it is ignored).
    internal var endsOnEarlyCancel = false
    /// A cancel while the next source is being subscribed is ignored.
    internal var ignoresCancelWhileHandingOver = false
    /// Demand the downstream returns for a value is requested from the source, not returned to it.
    internal var requestsReturnedDemand = false
}

/// The state shared by catch, tryCatch, append/prepend and retry: one source at a time (numbered by generation: 0 is
/// the first), the downstream's outstanding demand, and what each event means. Pure: every method returns what its
/// caller must do, outside the lock that guards this value.
internal struct HandoverStateMachine {
    internal enum Phase {
        /// Waiting for the subscription of source `generation`.
        case awaiting(Int)
        case active(Int, any Subscription)
        /// The downstream cancelled while source `generation` was current.
        case cancelled(Int)
        /// A completion went downstream.
        case finished
    }

    /// What the caller does with a subscription.
    internal enum SubscriptionAction {
        case handDownstream
        case request(Subscribers.Demand)
        case none
        case cancel
    }

    /// What the caller does with a value.
    internal enum ValueAction {
        case deliver
        case ignore
        case trap(String)
    }

    /// What the caller does with a completion.
    internal enum CompletionAction {
        /// Subscribe source `generation`, unless a handover is already running (the running one loops instead).
        case handOver(Int)
        case forward
        case ignore
        case trap(String)
    }

    internal let rules: HandoverRules
    internal private(set) var phase = Phase.awaiting(0)
    internal private(set) var demand = Subscribers.Demand.none
    private var handedDownstream = false
    private var handoversLeft: Int?
    /// A handover is subscribing its source; a handover asked for meanwhile is queued here instead of nesting.
    private var handingOver = false
    private var queuedHandover: Int?

    internal init(rules: HandoverRules) {
        self.rules = rules
        handoversLeft = rules.handovers
    }

    /// The generation whose events count now, if any.
    private var current: Int? {
        switch phase {
        case .awaiting(let generation), .active(let generation, _): return generation
        case .cancelled, .finished: return nil
        }
    }

    /// The generation of the latest source, whatever the phase.
    private var latest: Int? {
        switch phase {
        case .awaiting(let generation), .active(let generation, _), .cancelled(let generation): return generation
        case .finished: return nil
        }
    }

    internal mutating func subscription(_ subscription: any Subscription, generation: Int) -> SubscriptionAction {
        guard case .awaiting(generation) = phase else { return .cancel }
        phase = .active(generation, subscription)
        if !handedDownstream {
            handedDownstream = true
            return .handDownstream
        }
        return demand > 0 ? .request(demand) : .none
    }

    internal mutating func value(generation: Int) -> ValueAction {
        guard handedDownstream else {
            return rules.trapsOnEarlyValue ? .trap(" received a value before its subscription") : .ignore
        }
        guard generation == current || rules.deliversLateValues else { return .ignore }
        if case .awaiting(generation) = phase, !rules.acceptsEarlyLaterValues { return .ignore }
        if demand > 0 {
            demand -= 1
            return .deliver
        }
        switch generation == 0 ? rules.firstSurplus : rules.laterSurplus {
        case .trap: return .trap(" received a value it did not ask for")
        case .drop: return .ignore
        case .deliver: return .deliver
        }
    }

    /// The downstream answered a delivered value with `more`.
    internal mutating func delivered(more: Subscribers.Demand) -> (any Subscription)? {
        guard more > 0 else { return nil }
        demand += more
        guard rules.requestsReturnedDemand, case .active(_, let subscription) = phase else { return nil }
        return subscription
    }

    internal mutating func completion(generation: Int, isFailure: Bool) -> CompletionAction {
        guard generation == current else {
            if isFailure, rules.trapsOnStaleFailure, let latest, generation < latest {
                return .trap("'s upstream failed a second time")
            }
            return .ignore
        }
        if case .awaiting = phase {
            let accepted = generation == 0 ? rules.acceptsEarlyFirstCompletion : rules.acceptsEarlyLaterCompletion
            guard accepted else { return .ignore }
        }
        guard isFailure == rules.handsOverOnFailure, handoversLeft.map({ $0 > 0 }) ?? true else {
            phase = .finished
            return .forward
        }
        handoversLeft = handoversLeft.map { $0 - 1 }
        phase = .awaiting(generation + 1)
        if handingOver {
            queuedHandover = generation + 1
            return .ignore
        }
        handingOver = true
        return .handOver(generation + 1)
    }

    /// A handover's subscribe call returned: the handover queued meanwhile, if any, to run next.
    internal mutating func handOverReturned() -> Int? {
        if let next = queuedHandover {
            queuedHandover = nil
            return next
        }
        handingOver = false
        return nil
    }

    /// The next source could not be made (tryCatch's handler threw): the stream ends with that failure.
    internal mutating func handOverFailed() -> Bool {
        guard case .awaiting = phase else { return false }
        phase = .finished
        return true
    }

    /// The subscription to ask, if any; the demand is added in any case but after the end.
    internal mutating func request(_ more: Subscribers.Demand) -> (any Subscription)? {
        switch phase {
        case .active(_, let subscription):
            demand += more
            return subscription
        case .awaiting:
            demand += more
            return nil
        case .cancelled, .finished:
            return nil
        }
    }

    /// Whether the cancel ends the stream, and the subscription to cancel.
    internal mutating func cancel() -> (ends: Bool, subscription: (any Subscription)?) {
        switch phase {
        case .active(let generation, let subscription):
            phase = .cancelled(generation)
            return (true, subscription)
        case .awaiting(let generation):
            let ignored = handedDownstream ? rules.ignoresCancelWhileHandingOver : !rules.endsOnEarlyCancel
            if ignored { return (false, nil) }
            phase = .cancelled(generation)
            return (true, nil)
        case .cancelled, .finished:
            return (false, nil)
        }
    }
}
