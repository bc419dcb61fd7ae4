extension Publisher {
    /// Wraps this publisher with a type eraser, to expose an `AnyPublisher` across an API boundary.
    @inlinable
    public func eraseToAnyPublisher() -> AnyPublisher<Output, Failure> {
        AnyPublisher(self)
    }
}

/// A publisher that performs type erasure by wrapping another publisher.
@frozen
public struct AnyPublisher<Output, Failure: Error>: Publisher, CustomStringConvertible {
    @usableFromInline
    internal let box: PublisherBoxBase<Output, Failure>

    /// Creates a type-erasing publisher to wrap the provided publisher; erasing an `AnyPublisher` again unwraps it.
    @inlinable
    public init<P: Publisher>(_ publisher: P) where Output == P.Output, Failure == P.Failure {
        if let erased = publisher as? AnyPublisher<Output, Failure> {
            box = erased.box
        } else {
            box = PublisherBox(publisher)
        }
    }

    /// The wrapped publisher's description.
    public var description: String { "AnyPublisher" }

    /// Attaches the subscriber to the wrapped publisher.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
        box.receive(subscriber: subscriber)
    }
}

/// The abstract base of the box that holds an erased publisher; a generic subclass overrides `receive`.
@usableFromInline
internal class PublisherBoxBase<Output, Failure: Error>: Publisher {
    @inlinable
    internal init() {}

    @inlinable
    internal func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
        fatalError("abstract")
    }
}

@usableFromInline
internal final class PublisherBox<Base: Publisher>: PublisherBoxBase<Base.Output, Base.Failure> {
    @usableFromInline
    internal let base: Base

    @inlinable
    internal init(_ base: Base) {
        self.base = base
        super.init()
    }

    @inlinable
    override internal func receive<S: Subscriber>(subscriber: S)
    where Base.Output == S.Input, Base.Failure == S.Failure {
        base.receive(subscriber: subscriber)
    }
}
