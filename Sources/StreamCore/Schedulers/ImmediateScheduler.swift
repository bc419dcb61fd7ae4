/// A scheduler for performing synchronous actions: every action runs at once, on the calling thread.
///
/// Its time never advances, so delays are ignored. Useful in tests and where a scheduler is required but no
/// asynchrony is wanted.
public struct ImmediateScheduler: Scheduler, Sendable {
    /// The time type of the immediate scheduler: a single instant.
    public struct SchedulerTimeType: Strideable, Sendable {
        /// Distances are meaningless for this scheduler, but kept countable for source compatibility.
        public struct Stride: ExpressibleByFloatLiteral, Comparable, SignedNumeric, Codable,
            SchedulerTimeIntervalConvertible, Sendable
        {
            /// A stride is built from whole numbers.
            public typealias IntegerLiteralType = Int
            /// Floating-point literals are truncated.
            public typealias FloatLiteralType = Double
            /// The magnitude is the stride itself.
            public typealias Magnitude = Int

            /// The value of this stride.
            public var magnitude: Int

            /// Creates a stride of `value`.
            public init(_ value: Int) { magnitude = value }
            /// Creates a stride from an integer literal.
            public init(integerLiteral value: Int) { magnitude = value }
            /// Creates a stride from a floating-point literal, truncating it.
            public init(floatLiteral value: Double) { magnitude = Int(value) }
            /// Creates a stride from an exactly representable integer.
            public init?<T: BinaryInteger>(exactly source: T) {
                guard let value = Int(exactly: source) else { return nil }
                magnitude = value
            }

            /// Orders strides by value.
            public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }
            /// Multiplies strides.
            public static func * (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude * rhs.magnitude) }
            /// Adds strides.
            public static func + (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude + rhs.magnitude) }
            /// Subtracts strides.
            public static func - (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude - rhs.magnitude) }
            /// Subtracts in place.
            public static func -= (lhs: inout Stride, rhs: Stride) { lhs.magnitude -= rhs.magnitude }
            /// Multiplies in place.
            public static func *= (lhs: inout Stride, rhs: Stride) { lhs.magnitude *= rhs.magnitude }
            /// Adds in place.
            public static func += (lhs: inout Stride, rhs: Stride) { lhs.magnitude += rhs.magnitude }

            /// Time units collapse to zero: this scheduler has no notion of duration.
            public static func seconds(_ s: Int) -> Stride { 0 }
            /// Time units collapse to zero.
            public static func seconds(_ s: Double) -> Stride { 0 }
            /// Time units collapse to zero.
            public static func milliseconds(_ ms: Int) -> Stride { 0 }
            /// Time units collapse to zero.
            public static func microseconds(_ us: Int) -> Stride { 0 }
            /// Time units collapse to zero.
            public static func nanoseconds(_ ns: Int) -> Stride { 0 }
        }

        /// Every instant is the same, so the distance is always zero.
        public func distance(to other: SchedulerTimeType) -> Stride { 0 }
        /// Advancing stays at the same instant.
        public func advanced(by n: Stride) -> SchedulerTimeType { self }
    }

    /// This scheduler takes no options.
    public typealias SchedulerOptions = Never

    /// The shared instance of the immediate scheduler.
    public static let shared = ImmediateScheduler()

    /// The one instant this scheduler knows.
    public var now: SchedulerTimeType { SchedulerTimeType() }

    /// No tolerance applies.
    public var minimumTolerance: SchedulerTimeType.Stride { 0 }

    /// Runs the action now.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        action()
    }

    /// Runs the action now; the date is ignored.
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        action()
    }

    /// Runs the action once, now, and returns a cancellable that does nothing: there is nothing left to repeat.
    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        action()
        return Subscriptions.empty
    }
}
