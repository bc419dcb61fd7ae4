import Synchronization

/// A type-erasing cancellable object that runs a cancellation closure when cancelled or deinitialized.
///
/// Cancellation runs at most once, whichever comes first; the closure is released as soon as it has run, so the
/// subscription chain it references is freed then rather than at deinit. An atomic flag decides which call runs it,
/// so creating one costs a single allocation (it sits on the path of every `sink`).
public final class AnyCancellable: Cancellable, Hashable {
    @usableFromInline internal let cancelled = Atomic<Bool>(false)
    // Touched only by the call that flips `cancelled`. A class canceller (a subscriber, a subscription) is kept as
    // is; anything else is wrapped in a closure.
    @usableFromInline @exclusivity(unchecked) internal var closure: (() -> Void)?
    @usableFromInline @exclusivity(unchecked) internal var object: (any Cancellable & AnyObject)?

    /// Creates a cancellable that runs `cancel` when cancelled or deinitialized.
    public init(_ cancel: @escaping () -> Void) {
        closure = cancel
    }

    /// Creates a cancellable that cancels `canceller` when cancelled or deinitialized.
    @inlinable
    public init<C: Cancellable>(_ canceller: C) {
        if let object = canceller as? any Cancellable & AnyObject {
            self.object = object
        } else {
            closure = canceller.cancel
        }
    }

    /// Wraps a class canceller with no dynamic cast (the public generic initializer needs one to tell classes apart).
    @usableFromInline
    internal init(object canceller: any Cancellable & AnyObject) {
        object = canceller
    }

    deinit {
        // No other reference exists during deinit.
        if !cancelled.load(ordering: .acquiring) {
            closure?()
            object?.cancel()
        }
    }

    /// Cancels the activity. Later calls do nothing.
    public func cancel() {
        guard !cancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let closure = self.closure
        let object = self.object
        self.closure = nil
        self.object = nil
        closure?()
        object?.cancel()
    }

    /// Stores this cancellable in the specified collection.
    public func store<C: RangeReplaceableCollection>(in collection: inout C) where C.Element == AnyCancellable {
        collection.append(self)
    }

    /// Stores this cancellable in the specified set.
    public func store(in set: inout Set<AnyCancellable>) {
        set.insert(self)
    }

    /// Identity: two `AnyCancellable`s are equal only if they are the same object.
    public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool {
        lhs === rhs
    }

    /// Hashes by object identity.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}
