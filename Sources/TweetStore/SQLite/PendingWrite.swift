import Synchronization

/// Work handed to the store's queue without waiting for it, so a producer can keep the writer busy: the next batch is
/// already queued when the one before commits. `value` waits for the outcome; one task may wait on it.
final class PendingWrite<T: Sendable>: Sendable {
    private struct State {
        var result: Result<T, Error>?
        var waiter: CheckedContinuation<T, Error>?
    }

    private let state = Mutex(State())

    /// True once the work has thrown; safe to ask from the queue itself, where earlier work has already finished.
    var failed: Bool {
        state.withLock { state in
            if case .failure? = state.result { return true }
            return false
        }
    }

    func complete(_ result: Result<T, Error>) {
        let waiter = state.withLock { state -> CheckedContinuation<T, Error>? in
            state.result = result
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(with: result)
    }

    /// The work's result, once it has run.
    var value: T {
        get async throws {
            try await withCheckedThrowingContinuation { continuation in
                let ready = state.withLock { state -> Result<T, Error>? in
                    if let result = state.result { return result }
                    precondition(state.waiter == nil, "PendingWrite supports one waiter")
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        }
    }
}
