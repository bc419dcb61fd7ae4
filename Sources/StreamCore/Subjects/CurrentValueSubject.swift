/// A subject that wraps a single value and publishes a new element whenever the value changes.
///
/// A new subscriber receives the current value as soon as it requests demand. If values are sent while a subscriber
/// has no demand, it receives the latest one on its next request (the intermediate ones are skipped), as in Combine.
public final class CurrentValueSubject<Output, Failure: Error>: Subject, @unchecked Sendable {
    @usableFromInline
    internal let core: SubjectCore<Output, Failure>

    /// The value wrapped by this subject; setting it sends the new value to subscribers (after completion it is only
    /// stored, as in Combine).
    public var value: Output {
        get {
            // The core always holds a value for this subject, so the force is safe even when Output is optional.
            core.value!
        }
        set {
            // After completion the value is still stored, as in Combine, but nothing is sent.
            core.send(newValue, updatingCurrentValue: true, storingAfterCompletion: true)
        }
    }

    /// Creates a subject holding `value`.
    public init(_ value: Output) {
        core = SubjectCore(currentValue: value, kind: .currentValue)
    }

    deinit {
        core.cancelUpstreams()
    }

    /// Attaches a subscriber; it receives the current value on its first request, then later values.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
        core.attach(subscriber, owner: self)
    }

    /// Stores the value and sends it to every subscriber; ignored after completion (assigning `value` still stores it).
    @inlinable
    public func send(_ input: Output) {
        core.send(input, updatingCurrentValue: true)
    }

    /// Completes every subscriber; later values and completions are ignored.
    @inlinable
    public func send(completion: Subscribers.Completion<Failure>) {
        core.send(completion: completion)
    }

    /// Keeps an upstream subscription and asks it for unlimited values at once, as Combine does; the subject cancels it
    /// when it is released.
    public func send(subscription: any Subscription) {
        core.send(subscription: subscription)
    }
}
