import Foundation
import StreamCore

// `RunLoop.SchedulerTimeType` and `OperationQueue.SchedulerTimeType` must stay two distinct public types, as in
// Combine, yet they are the same thing: a date, and a stride in seconds. These two protocols hold that one
// implementation; each public type only declares its stored property and initializer. They are public (and
// underscored) only because the public types' conformances to the standard protocols are satisfied by their default
// implementations.

/// The shared implementation of the wall-clock scheduler time types; not meant to be used directly.
public protocol _WallClockSchedulerTime: Strideable, Codable, Hashable, Sendable
where Stride: _WallClockSchedulerStride {
    /// The date this instant stands for.
    var date: Date { get set }

    /// Wraps a date.
    init(_ date: Date)
}

extension _WallClockSchedulerTime {
    /// The distance to `other`, in seconds.
    public func distance(to other: Self) -> Stride {
        Stride(other.date.timeIntervalSince(date))
    }

    /// The instant `n` later (earlier if negative).
    public func advanced(by n: Stride) -> Self {
        Self(date.addingTimeInterval(n.timeInterval))
    }
}

/// The shared implementation of the wall-clock scheduler strides, in seconds; integer and float literals count seconds,
/// as in Combine. Not meant to be used directly.
public protocol _WallClockSchedulerStride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric,
    ExpressibleByFloatLiteral, Hashable, Codable, Sendable
where Magnitude == TimeInterval, IntegerLiteralType == TimeInterval, FloatLiteralType == TimeInterval {
    /// The signed length in seconds.
    var magnitude: TimeInterval { get set }

    /// A stride of `timeInterval` seconds.
    init(_ timeInterval: TimeInterval)
}

extension _WallClockSchedulerStride {
    /// The signed length in seconds (the same as `magnitude`, under Combine's second name).
    public var timeInterval: TimeInterval {
        magnitude
    }

    /// A float literal counts seconds.
    public init(floatLiteral value: TimeInterval) {
        self.init(value)
    }

    /// An integer literal counts seconds.
    public init(integerLiteral value: TimeInterval) {
        self.init(value)
    }

    /// An exact integer counts seconds; nil if a `Double` cannot hold it exactly.
    public init?<T: BinaryInteger>(exactly source: T) {
        guard let value = TimeInterval(exactly: source) else { return nil }
        self.init(value)
    }

    /// A whole number of seconds.
    public static func seconds(_ s: Int) -> Self { Self(TimeInterval(s)) }
    /// A fractional number of seconds.
    public static func seconds(_ s: Double) -> Self { Self(s) }
    /// A whole number of milliseconds.
    public static func milliseconds(_ ms: Int) -> Self { Self(TimeInterval(ms) / 1_000) }
    /// A whole number of microseconds.
    public static func microseconds(_ us: Int) -> Self { Self(TimeInterval(us) / 1_000_000) }
    /// A whole number of nanoseconds.
    public static func nanoseconds(_ ns: Int) -> Self { Self(TimeInterval(ns) / 1_000_000_000) }

    /// Orders by length.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.magnitude < rhs.magnitude }
    /// Adds lengths.
    public static func + (lhs: Self, rhs: Self) -> Self { Self(lhs.magnitude + rhs.magnitude) }
    /// Subtracts lengths.
    public static func - (lhs: Self, rhs: Self) -> Self { Self(lhs.magnitude - rhs.magnitude) }
    /// Multiplies the lengths in seconds.
    public static func * (lhs: Self, rhs: Self) -> Self { Self(lhs.magnitude * rhs.magnitude) }
    /// Adds in place.
    public static func += (lhs: inout Self, rhs: Self) { lhs = lhs + rhs }
    /// Subtracts in place.
    public static func -= (lhs: inout Self, rhs: Self) { lhs = lhs - rhs }
    /// Multiplies in place.
    public static func *= (lhs: inout Self, rhs: Self) { lhs = lhs * rhs }
}
