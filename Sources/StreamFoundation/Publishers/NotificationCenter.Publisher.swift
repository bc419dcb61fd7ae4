import Foundation
import StreamCore

extension NotificationCenter {
    /// Returns a publisher that emits each notification named `name` (from `object`, if given) posted to this center.
    ///
    /// As in Combine, a notification posted while the subscriber has no outstanding demand is dropped, and the
    /// publisher never completes.
    public func publisher(for name: Notification.Name, object: AnyObject? = nil) -> NotificationCenter.Publisher {
        NotificationCenter.Publisher(center: self, name: name, object: object)
    }

    /// A publisher that emits notifications as they are posted; it observes the center only while subscribed.
    public struct Publisher: StreamCore.Publisher, Equatable {
        /// Each posted notification.
        public typealias Output = Notification
        /// Observing cannot fail.
        public typealias Failure = Never

        /// The center observed.
        public let center: NotificationCenter
        /// The notification name observed.
        public let name: Notification.Name
        /// The sender observed, or nil for any sender.
        public let object: AnyObject?

        /// Creates a publisher for `name` (from `object`, if given) on `center`.
        public init(center: NotificationCenter, name: Notification.Name, object: AnyObject? = nil) {
            self.center = center
            self.name = name
            self.object = object
        }

        /// Starts observing for this subscriber; cancelling the subscription removes the observer.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = NotificationSubscription(downstream: AnySubscriber(subscriber))
            subscriber.receive(subscription: subscription)
            subscription.observe(center: center, name: name, object: object)
        }

        /// Equal when they observe the same center, name and object (by identity).
        public static func == (lhs: Publisher, rhs: Publisher) -> Bool {
            lhs.center === rhs.center && lhs.name == rhs.name && lhs.object === rhs.object
        }
    }
}

private final class NotificationSubscription: Subscription, CustomStringConvertible, @unchecked Sendable {
    private let delivery: DemandGatedDelivery<Notification, Never>
    private let lock = NSLock()
    private var center: NotificationCenter?
    private var observer: (any NSObjectProtocol)?
    private var cancelled = false

    init(downstream: AnySubscriber<Notification, Never>) {
        delivery = DemandGatedDelivery(downstream: downstream)
    }

    var description: String { "NotificationCenter Observer" }

    /// Registers the observer after the subscriber has its subscription, unless it cancelled from `receive(subscription:)`.
    func observe(center: NotificationCenter, name: Notification.Name, object: AnyObject?) {
        let delivery = delivery
        let token = center.addObserver(forName: name, object: object, queue: nil) { notification in
            delivery.offer(notification)
        }
        let alreadyCancelled: Bool = lock.withLock {
            if cancelled { return true }
            self.center = center
            observer = token
            return false
        }
        if alreadyCancelled {
            center.removeObserver(token)
        }
    }

    func request(_ demand: Subscribers.Demand) {
        precondition(demand != .none, "demand must not be .none")
        delivery.request(demand)
    }

    func cancel() {
        let (center, observer): (NotificationCenter?, (any NSObjectProtocol)?) = lock.withLock {
            cancelled = true
            defer {
                self.center = nil
                self.observer = nil
            }
            return (self.center, self.observer)
        }
        delivery.cancel()
        if let center, let observer {
            center.removeObserver(observer)
        }
    }
}
