/// A publisher that awaits subscription before running the supplied closure to create a publisher for the new
/// subscriber.
///
/// Each subscriber gets a publisher of its own, created at the moment it subscribes.
public struct Deferred<DeferredPublisher: Publisher>: Publisher {
    /// The deferred publisher's values.
    public typealias Output = DeferredPublisher.Output
    /// The deferred publisher's failure.
    public typealias Failure = DeferredPublisher.Failure

    /// The closure to execute when this deferred publisher receives a subscription.
    public let createPublisher: () -> DeferredPublisher

    /// Creates a deferred publisher that calls `createPublisher` for each subscriber.
    public init(createPublisher: @escaping () -> DeferredPublisher) {
        self.createPublisher = createPublisher
    }

    /// Creates the publisher and attaches the subscriber to it.
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
        createPublisher().subscribe(subscriber)
    }
}
