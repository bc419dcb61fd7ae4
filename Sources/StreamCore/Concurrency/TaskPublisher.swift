/// A publisher that runs an `async` operation in a new `Task` for each subscriber and publishes its result:
/// the bridge from async APIs into a pipeline, as in `query.map { q in TaskPublisher { try await source.search(q) } }`.
///
/// Unlike `Future`, it is lazy and not shared: the task starts at the subscriber's first demand, each subscriber gets
/// its own task, and cancelling the subscription cancels the task (a `switchToLatest` dropping a stale search cancels
/// that search's request). The operation should honour cancellation; whatever it returns after a cancel is discarded.
public struct TaskPublisher<Output, Failure: Error>: Publisher {
    @usableFromInline
    internal let priority: TaskPriority?
    @usableFromInline
    internal let operation: @Sendable () async -> Result<Output, Failure>

    /// Publishes the result of a non-throwing operation, then finishes.
    public init(priority: TaskPriority? = nil, operation: @escaping @Sendable () async -> Output)
    where Failure == Never {
        self.priority = priority
        self.operation = { .success(await operation()) }
    }

    /// Publishes the result of a throwing operation, then finishes; or fails with the error it throws.
    public init(priority: TaskPriority? = nil, operation: @escaping @Sendable () async throws -> Output)
    where Failure == any Error {
        self.priority = priority
        self.operation = {
            do {
                return .success(try await operation())
            } catch {
                return .failure(error)
            }
        }
    }

    /// Gives the subscriber a subscription whose first demand starts the task.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscriber.receive(
            subscription: TaskSubscription(priority: priority, operation: operation, downstream: subscriber))
    }
}

private final class TaskSubscription<Downstream: Subscriber>: Subscription, AsyncDriven, CustomStringConvertible,
    @unchecked Sendable
{
    typealias Output = Downstream.Input
    typealias Failure = Downstream.Failure

    private enum State {
        case waitingForDemand(@Sendable () async -> Result<Output, Failure>)
        case starting
        case running(Task<Void, Never>)
        case done
    }

    private let lock = Lock()
    private let priority: TaskPriority?
    private var state: State
    private var downstream: Downstream?
    /// Handed from `request` to the task; written before the task exists, read once by it.
    private var pendingOperation: (@Sendable () async -> Result<Output, Failure>)?

    init(
        priority: TaskPriority?, operation: @escaping @Sendable () async -> Result<Output, Failure>,
        downstream: Downstream
    ) {
        self.priority = priority
        state = .waitingForDemand(operation)
        self.downstream = downstream
    }

    var description: String { "TaskPublisher" }

    func request(_ demand: Subscribers.Demand) {
        precondition(demand != .none, "demand must not be .none")
        lock.lock()
        guard case .waitingForDemand(let operation) = state else {
            lock.unlock()
            return
        }
        state = .starting
        pendingOperation = operation
        lock.unlock()
        // Created outside the lock: the task may finish on another thread and take the lock before we return.
        let task = startTask(priority: priority)
        lock.lock()
        if case .starting = state {
            state = .running(task)
            lock.unlock()
        } else {
            // Cancelled (or already delivered) while the task was being created.
            lock.unlock()
            task.cancel()
        }
    }

    func cancel() {
        lock.lock()
        let task: Task<Void, Never>?
        if case .running(let running) = state { task = running } else { task = nil }
        state = .done
        let released = downstream
        downstream = nil
        lock.unlock()
        task?.cancel()
        withExtendedLifetime(released) {}
    }

    func drive() async {
        lock.lock()
        let operation = pendingOperation
        pendingOperation = nil
        lock.unlock()
        guard let operation else { return }
        deliver(await operation())
    }

    private func deliver(_ result: Result<Output, Failure>) {
        lock.lock()
        guard let downstream else {
            lock.unlock()
            return
        }
        self.downstream = nil
        state = .done
        lock.unlock()
        switch result {
        case .success(let value):
            _ = downstream.receive(value)
            downstream.receive(completion: .finished)
        case .failure(let error):
            downstream.receive(completion: .failure(error))
        }
    }
}
