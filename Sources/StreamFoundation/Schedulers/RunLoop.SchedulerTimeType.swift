import Foundation
import StreamCore

extension RunLoop {
    /// An instant on the wall clock, the time type of the `RunLoop` scheduler.
    ///
    /// `OperationQueue.SchedulerTimeType` has the same shape but is a distinct type, as in Combine, so code that
    /// extends or overloads on one does not collide with the other. Both take their behaviour from
    /// `_WallClockSchedulerTime`.
    public struct SchedulerTimeType: _WallClockSchedulerTime, Strideable, Codable, Hashable, Sendable {
        /// The date this instant stands for.
        public var date: Date

        /// Wraps a date.
        public init(_ date: Date) {
            self.date = date
        }

        /// A distance in seconds; integer and float literals count seconds, as in Combine.
        public struct Stride: _WallClockSchedulerStride, SchedulerTimeIntervalConvertible, Comparable, SignedNumeric,
            ExpressibleByFloatLiteral, Hashable, Codable, Sendable
        {
            /// Integer literals are read as seconds in a `TimeInterval`, Combine's literal type.
            public typealias IntegerLiteralType = TimeInterval
            /// Float literals are seconds.
            public typealias FloatLiteralType = TimeInterval

            /// The signed length in seconds.
            public var magnitude: TimeInterval

            /// A stride of `timeInterval` seconds.
            public init(_ timeInterval: TimeInterval) {
                magnitude = timeInterval
            }
        }
    }
}
