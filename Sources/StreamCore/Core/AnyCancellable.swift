import Synchronization

/// A type-erasing cancellable object that runs a cancellation closure when cancelled or deinitialized.
///
/// Cancellation runs at most once, whichever comes first; the closure is released as soon as it has run, so the
/// subscription chain it references is freed then rather than at deinit. An atomic flag decides which call runs it,
/// so creating one costs a single allocation (it sits on the path of every `sink`).
public final class AnyCancellable: Cancellable, Hashable {
    private enum Action {
        case closure(() -> Void)
        case cancellable(any Cancellable)
    }

    private let cancelled = Atomic<Bool>(false)
    /// Touched only by the call that flips `cancelled`.
    @exclusivity(unchecked) private var action: Action?

    /// Creates a cancellable that runs `cancel` when cancelled or deinitialized.
    public init(_ cancel: @escaping () -> Void) {
        action = .closure(cancel)
    }

    /// Creates a cancellable that cancels `canceller` when cancelled or deinitialized.
    public init<C: Cancellable>(_ canceller: C) {
        action = .cancellable(canceller)
    }

    deinit {
        // No other reference exists during deinit.
        if !cancelled.load(ordering: .acquiring) {
            run(action)
        }
    }

    /// Cancels the activity. Later calls do nothing.
    public func cancel() {
        guard !cancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let taken = action
        action = nil
        run(taken)
    }

    private func run(_ action: Action?) {
        switch action {
        case .closure(let body): body()
        case .cancellable(let canceller): canceller.cancel()
        case nil: break
        }
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
