#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The calling thread, to tell a reentrant call on one thread (a misuse Combine traps on, because its lock would be
/// taken twice) from a concurrent call on another (which Combine's lock would make wait, and is legitimate).
internal struct ThreadIdentity {
    private let thread: pthread_t

    /// The thread running now.
    internal static var current: ThreadIdentity { ThreadIdentity(thread: pthread_self()) }

    /// Whether this is the thread running now.
    internal var isCurrent: Bool { pthread_equal(thread, pthread_self()) != 0 }
}
