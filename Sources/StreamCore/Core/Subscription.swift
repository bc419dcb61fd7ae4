/// The connection between a publisher and a subscriber: it carries demand upstream and can be cancelled.
public protocol Subscription: Cancellable, CustomCombineIdentifierConvertible {
    /// Tells the publisher it may send up to `demand` more values. Requesting `.none` is a programmer error
    /// (Combine traps on it too).
    func request(_ demand: Subscribers.Demand)
}

/// A namespace for subscription helpers, as in Combine.
public enum Subscriptions {
    /// A subscription that does nothing: for publishers that complete immediately, such as `Empty`.
    public static var empty: any Subscription { EmptySubscription.shared }
}

/// The single shared do-nothing subscription behind `Subscriptions.empty`.
private final class EmptySubscription: Subscription, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible, Sendable
{
    static let shared = EmptySubscription()
    let combineIdentifier = CombineIdentifier()
    func request(_ demand: Subscribers.Demand) {}
    func cancel() {}
    var description: String { "Empty" }
    /// No children, as in Combine.
    var customMirror: Mirror { Mirror(self, children: []) }
    var playgroundDescription: Any { description }
}
