import StreamCore

extension TestScheduler {
    /// An instant on a test scheduler's virtual clock: nanoseconds since the clock's zero.
    ///
    /// Arithmetic saturates at the ends of `Int`, so an operator computing "now plus a huge timeout" never traps.
    public struct SchedulerTimeType: Strideable, Hashable, Sendable, CustomStringConvertible {
        /// Nanoseconds since the virtual clock's zero.
        public var nanoseconds: Int

        /// The virtual clock's zero, where a new scheduler starts unless told otherwise.
        public static let zero = SchedulerTimeType(nanoseconds: 0)

        /// An instant `nanoseconds` after the clock's zero.
        public init(nanoseconds: Int) {
            self.nanoseconds = nanoseconds
        }

        /// The instant `interval` after the clock's zero, as in `advance(to: .init(.seconds(2)))`.
        public init(_ interval: Stride) {
            self.nanoseconds = interval.magnitude
        }

        /// The distance from this instant to `other`.
        public func distance(to other: SchedulerTimeType) -> Stride {
            Stride(nanoseconds: saturatingSubtract(other.nanoseconds, nanoseconds))
        }

        /// The instant `n` later (earlier if negative), saturating at the ends of the clock.
        public func advanced(by n: Stride) -> SchedulerTimeType {
            SchedulerTimeType(nanoseconds: saturatingAdd(nanoseconds, n.magnitude))
        }

        /// Seconds since zero, for readable failure messages.
        public var description: String {
            Stride(nanoseconds: nanoseconds).description
        }

        /// A distance on the virtual clock, in nanoseconds.
        ///
        /// Shaped like Combine's `DispatchQueue.SchedulerTimeType.Stride`: `magnitude` is the signed nanosecond count,
        /// and integer and float literals mean seconds, so `0.5` and `.milliseconds(500)` are the same stride.
        public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, ExpressibleByFloatLiteral,
            Hashable, Sendable, CustomStringConvertible
        {
            /// The stride's length in nanoseconds; negative strides point back in time.
            public var magnitude: Int

            /// A stride of `nanoseconds`.
            public init(nanoseconds: Int) {
                magnitude = nanoseconds
            }

            /// A stride of `seconds`, rounded to the nearest nanosecond and clamped to `Int`'s range.
            public init(seconds: Double) {
                magnitude = clampedNanoseconds(seconds * 1_000_000_000)
            }

            /// An integer literal counts seconds, as with Combine's dispatch strides.
            public init(integerLiteral value: Int) {
                magnitude = saturatingMultiply(value, 1_000_000_000)
            }

            /// A float literal counts seconds.
            public init(floatLiteral value: Double) {
                self.init(seconds: value)
            }

            /// An exact integer counts seconds; nil if it does not fit.
            public init?<T: BinaryInteger>(exactly source: T) {
                guard let seconds = Int(exactly: source) else { return nil }
                let (value, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
                if overflow { return nil }
                magnitude = value
            }

            /// The stride in seconds.
            public var timeInterval: Double {
                Double(magnitude) / 1_000_000_000
            }

            /// Seconds, with a unit, for failure messages.
            public var description: String {
                "\(timeInterval)s"
            }

            /// A whole number of seconds.
            public static func seconds(_ s: Int) -> Stride { Stride(nanoseconds: saturatingMultiply(s, 1_000_000_000)) }
            /// A fractional number of seconds.
            public static func seconds(_ s: Double) -> Stride { Stride(seconds: s) }
            /// A whole number of milliseconds.
            public static func milliseconds(_ ms: Int) -> Stride {
                Stride(nanoseconds: saturatingMultiply(ms, 1_000_000))
            }
            /// A whole number of microseconds.
            public static func microseconds(_ us: Int) -> Stride { Stride(nanoseconds: saturatingMultiply(us, 1_000)) }
            /// A whole number of nanoseconds.
            public static func nanoseconds(_ ns: Int) -> Stride { Stride(nanoseconds: ns) }

            /// Orders strides by length.
            public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }
            /// Adds lengths, saturating.
            public static func + (lhs: Stride, rhs: Stride) -> Stride {
                Stride(nanoseconds: saturatingAdd(lhs.magnitude, rhs.magnitude))
            }
            /// Subtracts lengths, saturating.
            public static func - (lhs: Stride, rhs: Stride) -> Stride {
                Stride(nanoseconds: saturatingSubtract(lhs.magnitude, rhs.magnitude))
            }
            /// Multiplies the second counts, so `.seconds(2) * 3` (the literal meaning three seconds) is six seconds.
            public static func * (lhs: Stride, rhs: Stride) -> Stride {
                Stride(seconds: lhs.timeInterval * rhs.timeInterval)
            }
            /// Adds in place.
            public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }
            /// Subtracts in place.
            public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }
            /// Multiplies in place.
            public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }
        }
    }
}

private func saturatingAdd(_ a: Int, _ b: Int) -> Int {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? (b > 0 ? Int.max : Int.min) : sum
}

private func saturatingSubtract(_ a: Int, _ b: Int) -> Int {
    let (difference, overflow) = a.subtractingReportingOverflow(b)
    return overflow ? (b < 0 ? Int.max : Int.min) : difference
}

private func saturatingMultiply(_ a: Int, _ b: Int) -> Int {
    let (product, overflow) = a.multipliedReportingOverflow(by: b)
    return overflow ? ((a < 0) == (b < 0) ? Int.max : Int.min) : product
}

private func clampedNanoseconds(_ value: Double) -> Int {
    if value.isNaN { return 0 }
    if value >= Double(Int.max) { return Int.max }
    if value <= Double(Int.min) { return Int.min }
    return Int(value.rounded())
}
