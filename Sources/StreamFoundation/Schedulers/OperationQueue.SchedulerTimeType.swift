import Foundation
import StreamCore

extension OperationQueue {
    /// An instant on the wall clock, the time type of the `OperationQueue` scheduler.
    ///
    /// `RunLoop.SchedulerTimeType` has the same shape but is a distinct type, as in Combine, so code that
    /// extends or overloads on one does not collide with the other.
    public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable {
        /// The date this instant stands for.
        public var date: Date

        /// Wraps a date.
        public init(_ date: Date) {
            self.date = date
        }

        /// The distance to `other`, in seconds.
        public func distance(to other: SchedulerTimeType) -> Stride {
            Stride(other.date.timeIntervalSince(date))
        }

        /// The instant `n` later (earlier if negative).
        public func advanced(by n: Stride) -> SchedulerTimeType {
            SchedulerTimeType(date.addingTimeInterval(n.timeInterval))
        }

        /// A distance in seconds; integer and float literals count seconds, as in Combine.
        public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, ExpressibleByFloatLiteral,
            Hashable, Codable, Sendable
        {
            /// Integer literals are read as seconds in a `TimeInterval`, Combine's literal type.
            public typealias IntegerLiteralType = TimeInterval
            /// Float literals are seconds.
            public typealias FloatLiteralType = TimeInterval

            /// The signed length in seconds.
            public var magnitude: TimeInterval

            /// The signed length in seconds (the same as `magnitude`, under Combine's second name).
            public var timeInterval: TimeInterval {
                magnitude
            }

            /// A stride of `timeInterval` seconds.
            public init(_ timeInterval: TimeInterval) {
                magnitude = timeInterval
            }

            /// A float literal counts seconds.
            public init(floatLiteral value: TimeInterval) {
                magnitude = value
            }

            /// An integer literal counts seconds.
            public init(integerLiteral value: TimeInterval) {
                magnitude = value
            }

            /// An exact integer counts seconds; nil if a `Double` cannot hold it exactly.
            public init?<T: BinaryInteger>(exactly source: T) {
                guard let value = TimeInterval(exactly: source) else { return nil }
                magnitude = value
            }

            /// A whole number of seconds.
            public static func seconds(_ s: Int) -> Stride { Stride(TimeInterval(s)) }
            /// A fractional number of seconds.
            public static func seconds(_ s: Double) -> Stride { Stride(s) }
            /// A whole number of milliseconds.
            public static func milliseconds(_ ms: Int) -> Stride { Stride(TimeInterval(ms) / 1_000) }
            /// A whole number of microseconds.
            public static func microseconds(_ us: Int) -> Stride { Stride(TimeInterval(us) / 1_000_000) }
            /// A whole number of nanoseconds.
            public static func nanoseconds(_ ns: Int) -> Stride { Stride(TimeInterval(ns) / 1_000_000_000) }

            /// Orders by length.
            public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }
            /// Adds lengths.
            public static func + (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude + rhs.magnitude) }
            /// Subtracts lengths.
            public static func - (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude - rhs.magnitude) }
            /// Multiplies the lengths in seconds.
            public static func * (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude * rhs.magnitude) }
            /// Adds in place.
            public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }
            /// Subtracts in place.
            public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }
            /// Multiplies in place.
            public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }
        }
    }
}
