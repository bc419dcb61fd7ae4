/// Declares that a type can receive input from a publisher.
///
/// Mirrors Combine's `Subscriber`: it receives exactly one subscription, then values while it has demand,
/// then at most one completion.
public protocol Subscriber<Input, Failure>: CustomCombineIdentifierConvertible {
    /// The kind of values this subscriber receives.
    associatedtype Input
    /// The kind of errors this subscriber might receive; `Never` if it cannot receive errors.
    associatedtype Failure: Error

    /// Tells the subscriber that it has subscribed and may request items.
    func receive(subscription: any Subscription)
    /// Delivers one element; returns how many more elements the subscriber wants (added to its outstanding demand).
    func receive(_ input: Input) -> Subscribers.Demand
    /// Tells the subscriber that the publisher has finished, normally or with an error.
    func receive(completion: Subscribers.Completion<Failure>)
}

extension Subscriber where Input == Void {
    /// Delivers a `Void` element.
    public func receive() -> Subscribers.Demand {
        receive(())
    }
}

/// A namespace for the subscriber types and their helpers, as in Combine.
public enum Subscribers {}
