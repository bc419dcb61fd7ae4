import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A lock stored inline in its owner, for state that is touched rarely and only for a few instructions (a
/// subscriber's subscription slot). Unlike `Lock` it costs no allocation, which matters for short-lived subscribers;
/// it is built on acquire/release atomics, which ThreadSanitizer understands. Never call out while holding it.
@usableFromInline
internal struct SpinLock: ~Copyable, @unchecked Sendable {
    @usableFromInline internal let state = Atomic<Bool>(false)

    @inlinable
    internal init() {}

    @inlinable
    internal borrowing func lock() {
        if state.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged { return }
        lockSlowly()
    }

    /// Contended: spin on a plain load, yielding the processor after a short while (the holder may be descheduled).
    @usableFromInline
    internal borrowing func lockSlowly() {
        var spins = 0
        while true {
            while state.load(ordering: .relaxed) {
                spins += 1
                if spins > 100 { sched_yield() }
            }
            if state.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged { return }
        }
    }

    @inlinable
    internal borrowing func unlock() {
        state.store(false, ordering: .releasing)
    }
}
