/// A publisher that provides an explicit means of connecting and canceling publication.
///
/// Use `makeConnectable()` to get one from a publisher that can't fail, and `autoconnect()` to connect on first subscription.
public protocol ConnectablePublisher<Output, Failure>: Publisher {
    /// Connects to the upstream publisher; cancelling the result disconnects.
    func connect() -> any Cancellable
}
