import Dispatch

/// A batch's decoded rows, built on an import's decoding queue and taken by the importing thread, which waits for them
/// (both import paths, `importJSONL` and `PostgresShapeImport`, decode up to two batches ahead this way).
///
/// Unchecked: `value` is written once by the decoding queue before `ready` is signalled and read only after `wait()`
/// returns, so the semaphore orders the two.
final class DecodedLater<Value: Sendable>: @unchecked Sendable {
    private let ready = DispatchSemaphore(value: 0)
    private var value: Value?
    private let fallback: Value

    /// A result not yet there; `fallback` is what `wait` returns should `fulfil` hand over nothing (it never does).
    init(fallback: Value) {
        self.fallback = fallback
    }

    /// Hands the value over; called once, from the decoding queue.
    func fulfil(_ value: Value) {
        self.value = value
        ready.signal()
    }

    /// Waits for the value.
    func wait() -> Value {
        ready.wait()
        return value ?? fallback
    }
}
