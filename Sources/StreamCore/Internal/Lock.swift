#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The lock StreamCore uses everywhere: a `pthread_mutex_t`.
///
/// Chosen over `Synchronization.Mutex` because Mutex locks with a raw futex that ThreadSanitizer cannot see, which makes
/// every TSan run report false races; pthread mutexes are intercepted by TSan and are as fast uncontended.
/// The mutex lives in its own allocation so that its address never moves.
@usableFromInline
internal final class Lock: @unchecked Sendable {
    @usableFromInline
    internal let mutex: UnsafeMutablePointer<pthread_mutex_t>

    @inlinable
    internal init() {
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let result = pthread_mutex_init(mutex, nil)
        precondition(result == 0, "pthread_mutex_init failed")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    @inlinable
    internal func lock() {
        pthread_mutex_lock(mutex)
    }

    @inlinable
    internal func unlock() {
        pthread_mutex_unlock(mutex)
    }

    /// Runs `body` with the lock held. Never call downstream or user closures from `body`.
    @inlinable
    internal func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// A recursive lock, for the few places (such as `ObservableObject` publishers) where a thread may re-enter.
@usableFromInline
internal final class RecursiveLock: @unchecked Sendable {
    @usableFromInline
    internal let mutex: UnsafeMutablePointer<pthread_mutex_t>

    @inlinable
    internal init() {
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        let result = pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
        precondition(result == 0, "pthread_mutex_init failed")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    @inlinable
    internal func lock() {
        pthread_mutex_lock(mutex)
    }

    @inlinable
    internal func unlock() {
        pthread_mutex_unlock(mutex)
    }
}
