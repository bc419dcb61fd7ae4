/// A type of object with a publisher that emits before the object has changed.
///
/// By default `objectWillChange` is an `ObservableObjectPublisher` that fires before any `@Published` property of
/// the object changes. Each object's default publisher is found through a table keyed by the object's identity, and
/// its `@Published` properties cache it on their first change, so neither reading `objectWillChange` nor changing a
/// property walks the object's fields by reflection (fields are walked once, when the publisher is created).
public protocol ObservableObject: AnyObject {
    /// The type of publisher that emits before the object has changed.
    associatedtype ObjectWillChangePublisher: Publisher = ObservableObjectPublisher
    where ObjectWillChangePublisher.Failure == Never

    /// A publisher that emits before the object has changed.
    var objectWillChange: ObjectWillChangePublisher { get }
}

extension ObservableObject where ObjectWillChangePublisher == ObservableObjectPublisher {
    /// The object's default publisher, created on first use and the same object on every access.
    public var objectWillChange: ObservableObjectPublisher {
        ObservableObjectRegistry.shared.publisher(for: self)
    }
}

/// The side table that gives each observable object its default `objectWillChange` publisher.
///
/// Entries hold the object weakly; an entry whose object died is replaced when its identifier is reused and swept
/// when the table has doubled since the last sweep, so the table stays proportional to the live objects.
internal final class ObservableObjectRegistry: @unchecked Sendable {
    static let shared = ObservableObjectRegistry()

    private struct Entry {
        weak var object: AnyObject?
        let publisher: ObservableObjectPublisher
    }

    private let lock = Lock()
    private var entries: [ObjectIdentifier: Entry] = [:]
    private var sweepThreshold = 64

    /// The default publisher of `object` if its synthesized `objectWillChange` has been read, without making one.
    func existingPublisher(for object: AnyObject) -> ObservableObjectPublisher? {
        let id = ObjectIdentifier(object)
        lock.lock()
        defer { lock.unlock() }
        if let entry = entries[id], entry.object === object {
            return entry.publisher
        }
        return nil
    }

    func publisher(for object: AnyObject) -> ObservableObjectPublisher {
        let id = ObjectIdentifier(object)
        lock.lock()
        if let entry = entries[id], entry.object === object {
            lock.unlock()
            return entry.publisher
        }
        let publisher = ObservableObjectPublisher()
        if entries.count >= sweepThreshold {
            entries = entries.filter { $0.value.object != nil }
            sweepThreshold = max(64, entries.count * 2)
        }
        entries[id] = Entry(object: object, publisher: publisher)
        lock.unlock()
        // Once per object: tell its @Published properties where to announce changes, so that values arriving through
        // `assign(to: &$property)` announce too, even before the property is first set directly.
        var mirror: Mirror? = Mirror(reflecting: object)
        while let current = mirror {
            for child in current.children {
                (child.value as? any PublishedStorageProtocol)?.adopt(publisher)
            }
            mirror = current.superclassMirror
        }
        return publisher
    }
}

/// Lets the registry reach a `@Published` property's storage without knowing its value type.
internal protocol PublishedStorageProtocol {
    func adopt(_ publisher: ObservableObjectPublisher)
}
