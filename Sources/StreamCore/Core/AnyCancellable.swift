/// A type-erasing cancellable object that runs a cancellation closure when cancelled or deinitialized.
///
/// Cancellation runs at most once, whichever comes first; the closure is released as soon as it has run, so the
/// subscription chain it references is freed then rather than at deinit.
public final class AnyCancellable: Cancellable, Hashable {
    private let lock = Lock()
    private var cancelAction: (() -> Void)?

    /// Creates a cancellable that runs `cancel` when cancelled or deinitialized.
    public init(_ cancel: @escaping () -> Void) {
        cancelAction = cancel
    }

    /// Creates a cancellable that cancels `canceller` when cancelled or deinitialized.
    public init<C: Cancellable>(_ canceller: C) {
        if let already = canceller as? AnyCancellable {
            cancelAction = already.cancel
        } else {
            cancelAction = canceller.cancel
        }
    }

    deinit {
        // No other reference exists during deinit, so no lock is needed.
        if let action = cancelAction {
            cancelAction = nil
            action()
        }
    }

    /// Cancels the activity. Later calls do nothing.
    public func cancel() {
        lock.lock()
        let action = cancelAction
        cancelAction = nil
        lock.unlock()
        action?()
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
