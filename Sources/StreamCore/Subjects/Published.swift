import Synchronization

/// A type that publishes a property marked with an attribute.
///
/// Use it on properties of classes. `$property` is a publisher that sends the current value on subscription and then
/// every new value. Timing follows Combine: a new value is published in the property's willSet — subscribers see it
/// before the stored value changes — and the enclosing `ObservableObject`'s default `objectWillChange` fires before that.
@propertyWrapper
public struct Published<Value> {
    @usableFromInline
    internal let box: PublishedSubject<Value>

    /// Creates the property with an initial value (`@Published var x = value`).
    public init(wrappedValue: Value) {
        box = PublishedSubject(wrappedValue)
    }

    /// Creates the property with an initial value.
    public init(initialValue: Value) {
        box = PublishedSubject(initialValue)
    }

    /// Unavailable: the value is reached through the enclosing instance, so that changes can announce themselves.
    @available(*, unavailable, message: "@Published is only available on properties of classes")
    public var wrappedValue: Value {
        get { fatalError("@Published is only available on properties of classes") }
        // swiftlint:disable:next unused_setter_value
        set { fatalError("@Published is only available on properties of classes") }
    }

    /// The property's publisher (`$property`): the current value on subscription, then every new value.
    public var projectedValue: Publisher {
        mutating get { Publisher(box: box) }
        set { _ = newValue }
    }

    /// Reads and writes the value of a class's property, announcing writes to the object first.
    @inlinable
    public static subscript<EnclosingSelf: AnyObject>(
        _enclosingInstance object: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
    ) -> Value {
        get {
            object[keyPath: storageKeyPath].box.currentValue
        }
        set {
            let box = object[keyPath: storageKeyPath].box
            if _slowPath(!box.resolved.load(ordering: .acquiring)) {
                box.resolveSlowly(object)
            }
            box.publish(newValue)
        }
    }

    /// The publisher behind `$property`.
    public struct Publisher: StreamCore.Publisher {
        /// The property's type.
        public typealias Output = Value
        /// Never fails.
        public typealias Failure = Never

        @usableFromInline
        internal let box: PublishedSubject<Value>

        @usableFromInline
        internal init(box: PublishedSubject<Value>) {
            self.box = box
        }

        /// Attaches a subscriber; it receives the current value on its first request, then each new value.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == Never {
            box.subject.attach(subscriber, owner: box)
        }
    }
}

extension Published: PublishedStorageProtocol {
    internal func adopt(_ publisher: ObservableObjectPublisher) {
        box.adopt(publisher)
    }
}

extension Published: @unchecked Sendable where Value: Sendable {}

/// The storage of one `@Published` property: its value, its subject, and the object's change publisher once known.
/// Combine calls this object the property's `PublishedSubject`, and so do its subscriptions' mirrors; as in Combine,
/// each subscription keeps it alive until the subscription ends.
///
/// The value is read and written under a lock, as Combine's storage is, so a property set on one thread (say by
/// `assign(to:)` after `receive(on:)`) and read on another is not a data race. Two threads setting it at once still
/// race on which value ends up stored, as with any property.
@usableFromInline
internal final class PublishedSubject<Value>: @unchecked Sendable {
    @usableFromInline @exclusivity(unchecked) internal var value: Value
    @usableFromInline internal let subject: SubjectCore<Value, Never>
    /// The enclosing object's change publisher, set once and held at +1 until deinit.
    @usableFromInline internal let objectWillChange = Atomic<Unmanaged<ObservableObjectPublisher>?>(nil)
    /// Set once the enclosing object has been examined; it stays unset with no publisher for plain classes.
    @usableFromInline internal let resolved = Atomic<Bool>(false)
    /// Guards `value` and `assignments`.
    @usableFromInline internal let lock = Lock()
    /// Subscriptions made by `assign(to: &$property)`, kept for as long as the property lives.
    private var assignments: [AnyCancellable] = []

    @usableFromInline
    internal init(_ value: Value) {
        self.value = value
        subject = SubjectCore(currentValue: value, kind: .published)
    }

    deinit {
        for assignment in assignments {
            assignment.cancel()
        }
        objectWillChange.load(ordering: .acquiring)?.release()
    }

    /// Finds the enclosing object's default change publisher, if it has been made; called on the property's first
    /// write. Only the synthesized `objectWillChange` is announced to, as in Combine: an object that declares its own
    /// publisher sends on it itself. One made later adopts this property when it is created.
    @usableFromInline
    internal func resolveSlowly(_ object: AnyObject) {
        if let publisher = ObservableObjectRegistry.shared.existingPublisher(for: object) {
            adopt(publisher)
        }
        resolved.store(true, ordering: .releasing)
    }

    @usableFromInline
    internal func adopt(_ publisher: ObservableObjectPublisher) {
        let retained = Unmanaged.passRetained(publisher)
        if !objectWillChange.compareExchange(expected: nil, desired: retained, ordering: .acquiringAndReleasing)
            .exchanged
        {
            retained.release()
        }
    }

    /// Announces the change, publishes the new value, then stores it: Combine's willSet order.
    @inlinable
    internal func publish(_ newValue: Value) {
        objectWillChange.load(ordering: .acquiring)?._withUnsafeGuaranteedRef { $0.send() }
        subject.send(newValue, updatingCurrentValue: true)
        lock.lock()
        let old = value
        value = newValue
        lock.unlock()
        // The old value is released here, outside the lock: its deinit may be user code.
        withExtendedLifetime(old) {}
    }

    /// The stored value (the old one while subscribers are told of a new one).
    @inlinable
    internal var currentValue: Value {
        lock.lock()
        defer { lock.unlock() }
        return value
    }

    internal func keep(_ assignment: AnyCancellable) {
        lock.lock()
        assignments.append(assignment)
        lock.unlock()
    }
}
