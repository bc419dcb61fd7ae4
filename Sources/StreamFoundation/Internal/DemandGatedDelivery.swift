import StreamCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The downstream half of a subscription to an event source that does not wait for demand (a timer, notifications):
/// an event is delivered if the subscriber asked for one and dropped otherwise, as Combine's timer and notification
/// publishers do.
///
/// Events may arrive on several threads at once (notifications are posted from anywhere), but downstream calls must be
/// serialized and no lock may be held while calling out. So the first thread to arrive becomes the deliverer: it drains
/// a small queue, and threads arriving meanwhile only append to it.
final class DemandGatedDelivery<Output, Failure: Error>: @unchecked Sendable {
    private enum Pending {
        case value(Output)
        case completion(Subscribers.Completion<Failure>)
    }

    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var downstream: AnySubscriber<Output, Failure>?
    private var demand = Subscribers.Demand.none
    private var pending: [Pending] = []
    private var delivering = false

    init(downstream: AnySubscriber<Output, Failure>) {
        self.downstream = downstream
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// True until cancelled or completed.
    var isActive: Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return downstream != nil
    }

    /// Adds demand; `.none` is ignored here (the caller decides whether it is a precondition failure).
    func request(_ more: Subscribers.Demand) {
        pthread_mutex_lock(mutex)
        if downstream != nil { demand += more }
        pthread_mutex_unlock(mutex)
    }

    /// Delivers `value` if there is demand; returns false when it was dropped for lack of demand or after the end.
    @discardableResult
    func offer(_ value: Output) -> Bool {
        pthread_mutex_lock(mutex)
        guard downstream != nil, demand > 0 else {
            pthread_mutex_unlock(mutex)
            return false
        }
        demand -= 1
        pending.append(.value(value))
        drainIfFirst()
        return true
    }

    /// Delivers the completion after anything already accepted, then releases the subscriber.
    func complete(_ completion: Subscribers.Completion<Failure>) {
        pthread_mutex_lock(mutex)
        guard downstream != nil else {
            pthread_mutex_unlock(mutex)
            return
        }
        pending.append(.completion(completion))
        drainIfFirst()
    }

    /// Stops delivery and releases the subscriber (outside the lock).
    func cancel() {
        pthread_mutex_lock(mutex)
        let released = downstream
        downstream = nil
        pending.removeAll()
        pthread_mutex_unlock(mutex)
        _ = released
    }

    /// Called with the lock held; returns with it released.
    private func drainIfFirst() {
        guard !delivering else {
            pthread_mutex_unlock(mutex)
            return
        }
        delivering = true
        while !pending.isEmpty, let subscriber = downstream {
            let next = pending.removeFirst()
            if case .completion = next {
                downstream = nil
                pending.removeAll()
            }
            pthread_mutex_unlock(mutex)
            switch next {
            case .value(let value):
                let more = subscriber.receive(value)
                pthread_mutex_lock(mutex)
                if downstream != nil { demand += more }
            case .completion(let completion):
                subscriber.receive(completion: completion)
                pthread_mutex_lock(mutex)
            }
        }
        delivering = false
        pthread_mutex_unlock(mutex)
    }
}
