import Synchronization

/// A unique identifier for identifying publisher streams (subscribers and subscriptions).
public struct CombineIdentifier: Hashable, CustomStringConvertible, Sendable {
    private let rawValue: UInt64

    /// Creates a unique identifier from a process-wide counter.
    public init() {
        rawValue = combineIdentifierCounter.add(1, ordering: .relaxed).newValue
    }

    /// Creates an identifier derived from an object's identity, so a class subscriber keeps one identifier.
    public init(_ obj: AnyObject) {
        rawValue = UInt64(UInt(bitPattern: ObjectIdentifier(obj)))
    }

    /// The identifier in hexadecimal.
    public var description: String {
        "0x" + String(rawValue, radix: 16)
    }
}

private let combineIdentifierCounter = Atomic<UInt64>(0)

/// A protocol for uniquely identifying publisher streams.
public protocol CustomCombineIdentifierConvertible {
    /// The stream's unique identifier.
    var combineIdentifier: CombineIdentifier { get }
}

extension CustomCombineIdentifierConvertible where Self: AnyObject {
    /// A class's identifier is derived from its identity.
    public var combineIdentifier: CombineIdentifier {
        CombineIdentifier(self)
    }
}
