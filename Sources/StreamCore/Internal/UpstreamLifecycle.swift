/// The life of one upstream subscription as a relaying operator sees it: waiting for the subscription, holding it,
/// then over. Several operators (multicast's inner, measureInterval, subscribe(on:)) share these rules, as in Combine:
/// a second subscription is cancelled, values and requests pass only while the subscription is held, and the first
/// completion or cancel ends it.
///
/// A plain value kept under its owner's lock. Each method changes the state and says what the owner is to do once
/// it has released the lock, so no call out ever runs with the lock held.
internal struct UpstreamLifecycle {
    private enum State {
        case awaitingSubscription
        case subscribed(any Subscription)
        case over
    }

    private var state = State.awaitingSubscription

    init() {}

    /// Keeps the first subscription and returns true; a later one (or one after the end) returns false, and the
    /// owner cancels it.
    mutating func attach(_ subscription: any Subscription) -> Bool {
        guard case .awaitingSubscription = state else { return false }
        state = .subscribed(subscription)
        return true
    }

    /// The subscription while it is held: values and requests go through only then.
    var live: (any Subscription)? {
        guard case .subscribed(let subscription) = state else { return nil }
        return subscription
    }

    /// Ends the life at a completion: true when this completion is the one to pass downstream.
    mutating func complete() -> Bool {
        guard case .subscribed = state else { return false }
        state = .over
        return true
    }

    /// Ends the life at a cancel: the subscription to cancel, nil when there was none to cancel (before the
    /// subscription, where Combine ignores a cancel, or after the end).
    mutating func cancel() -> (any Subscription)? {
        guard case .subscribed(let subscription) = state else { return nil }
        state = .over
        return subscription
    }
}
