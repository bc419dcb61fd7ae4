/// The publisher that an `ObservableObject` uses by default for `objectWillChange`: it sends `Void` before any
/// `@Published` property of the object changes.
///
/// It behaves as a `PassthroughSubject<Void, Never>` that never completes.
public final class ObservableObjectPublisher: Publisher, @unchecked Sendable {
    /// Sends `Void`.
    public typealias Output = Void
    /// Never fails.
    public typealias Failure = Never

    @usableFromInline
    internal let core = SubjectCore<Void, Never>(currentValue: nil, kind: .observableObject)

    /// Creates a publisher with no subscribers.
    public init() {}

    /// Attaches a subscriber; it is told of changes made after it requested demand.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Void, S.Failure == Never {
        core.attach(subscriber, owner: self)
    }

    /// Tells every subscriber that the object is about to change.
    @inlinable
    public func send() {
        core.send((), updatingCurrentValue: false)
    }
}
