extension AsyncSequence {
    /// A publisher of this sequence's elements, iterated in a task that pulls only while the subscriber has demand.
    public var publisher: AsyncSequencePublisher<Self> {
        AsyncSequencePublisher(self)
    }
}

/// A publisher that iterates an asynchronous sequence for each subscriber, honouring demand: it asks the sequence for an
/// element only when the subscriber has asked for one, so a slow subscriber applies backpressure to the sequence.
///
/// The iterating task starts at the first demand; the publisher finishes when the sequence ends and fails with the
/// error it throws. Cancelling the subscription cancels the task, which ends a cooperative sequence's `next()`.
public struct AsyncSequencePublisher<Base: AsyncSequence>: Publisher {
    /// The sequence's elements.
    public typealias Output = Base.Element
    /// The sequence's failure (`Never` for `AsyncStream`).
    public typealias Failure = Base.Failure

    /// The sequence iterated.
    public let base: Base

    /// Creates a publisher over `base`.
    public init(_ base: Base) {
        self.base = base
    }

    /// Gives the subscriber a subscription whose first demand starts iterating.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscriber.receive(subscription: AsyncSequenceSubscription(base: base, downstream: subscriber))
    }
}

/// The iteration runs in one task, so downstream calls are serialized; demand and cancellation cross threads through
/// the lock, and a task waiting for demand parks a continuation that `request` or `cancel` resumes outside the lock.
private final class AsyncSequenceSubscription<Base: AsyncSequence, Downstream: Subscriber>: Subscription,
    AsyncDriven, CustomStringConvertible, @unchecked Sendable
where Downstream.Input == Base.Element, Downstream.Failure == Base.Failure {
    private let lock = Lock()
    private var base: Base?
    private var downstream: Downstream?
    private var demand = Subscribers.Demand.none
    private var waiter: UnsafeContinuation<Bool, Never>?
    private var task: Task<Void, Never>?
    private var cancelled = false

    init(base: Base, downstream: Downstream) {
        self.base = base
        self.downstream = downstream
    }

    var description: String { "AsyncSequence" }

    func request(_ more: Subscribers.Demand) {
        precondition(more != .none, "demand must not be .none")
        lock.lock()
        guard !cancelled else {
            lock.unlock()
            return
        }
        demand += more
        let waiter = self.waiter
        self.waiter = nil
        if waiter != nil {
            demand -= 1
        }
        let base = self.base
        self.base = nil
        lock.unlock()
        waiter?.resume(returning: true)
        if let base {
            start(base)
        }
    }

    func cancel() {
        lock.lock()
        cancelled = true
        let task = self.task
        self.task = nil
        let waiter = self.waiter
        self.waiter = nil
        let released = downstream
        downstream = nil
        base = nil
        lock.unlock()
        waiter?.resume(returning: false)
        task?.cancel()
        withExtendedLifetime(released) {}
    }

    private var iterated: Base?

    private func start(_ base: Base) {
        lock.lock()
        iterated = base
        lock.unlock()
        let task = startTask()
        lock.lock()
        if cancelled {
            lock.unlock()
            task.cancel()
        } else {
            self.task = task
            lock.unlock()
        }
    }

    func drive() async {
        lock.lock()
        let base = iterated
        iterated = nil
        lock.unlock()
        guard var iterator = base?.makeAsyncIterator() else { return }
        while await claimOneDemand() {
            let step: Result<Base.Element?, Base.Failure>
            do throws(Base.Failure) {
                step = .success(try await iterator.next(isolation: nil))
            } catch {
                step = .failure(error)
            }
            lock.lock()
            guard let downstream else {
                lock.unlock()
                return
            }
            switch step {
            case .success(let element?):
                lock.unlock()
                let more = downstream.receive(element)
                if more != .none {
                    lock.lock()
                    if !cancelled { demand += more }
                    lock.unlock()
                }
            case .success(nil):
                end()
                lock.unlock()
                downstream.receive(completion: .finished)
                return
            case .failure(let error):
                end()
                lock.unlock()
                downstream.receive(completion: .failure(error))
                return
            }
        }
    }

    /// With the lock held: the iteration is over; forget the subscriber.
    private func end() {
        cancelled = true
        downstream = nil
        task = nil
    }

    /// Takes one unit of demand, waiting for a request if there is none; false once cancelled.
    private func claimOneDemand() async -> Bool {
        lock.lock()
        if cancelled {
            lock.unlock()
            return false
        }
        if demand > 0 {
            demand -= 1
            lock.unlock()
            return true
        }
        lock.unlock()
        return await withUnsafeContinuation { (continuation: UnsafeContinuation<Bool, Never>) in
            lock.lock()
            if cancelled {
                lock.unlock()
                continuation.resume(returning: false)
            } else if demand > 0 {
                demand -= 1
                lock.unlock()
                continuation.resume(returning: true)
            } else {
                waiter = continuation
                lock.unlock()
            }
        }
    }
}
