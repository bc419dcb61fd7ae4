import Dispatch
import StreamCore

extension DispatchQueue: Scheduler {
    /// Options for scheduling on a dispatch queue: quality of service, work item flags and an optional group,
    /// with Combine's names.
    public struct SchedulerOptions {
        /// The quality of service for the work.
        public var qos: DispatchQoS
        /// Flags for the work item.
        public var flags: DispatchWorkItemFlags
        /// The group the work joins, if any.
        public var group: DispatchGroup?

        /// Creates options; the defaults match a plain `async`.
        public init(qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [], group: DispatchGroup? = nil) {
            self.qos = qos
            self.flags = flags
            self.group = group
        }
    }

    /// The dispatch queue's notion of now: the uptime clock.
    public var now: SchedulerTimeType {
        SchedulerTimeType(DispatchTime.now())
    }

    /// Dispatch timers can be exact, so no tolerance is imposed.
    public var minimumTolerance: SchedulerTimeType.Stride {
        SchedulerTimeType.Stride(.nanoseconds(0))
    }

    /// Submits the action asynchronously to this queue.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let work = UncheckedSendableAction(action)
        let options = options ?? SchedulerOptions()
        async(group: options.group, qos: options.qos, flags: options.flags) {
            work.run()
        }
    }

    /// Submits the action to this queue once `date` is reached, with `tolerance` as the timer's leeway.
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        let work = UncheckedSendableAction(action)
        let options = options ?? SchedulerOptions()
        asyncAfter(deadline: date.dispatchTime, qos: options.qos, flags: options.flags) {
            work.run()
        }
    }

    /// Runs the action on this queue at `date` and then every `interval`, through a dispatch timer source that the
    /// returned cancellable cancels.
    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        let work = UncheckedSendableAction(action)
        let timer = DispatchSource.makeTimerSource(queue: self)
        timer.schedule(
            deadline: date.dispatchTime,
            repeating: interval.timeInterval,
            leeway: tolerance.timeInterval
        )
        timer.setEventHandler(qos: options?.qos ?? .unspecified, flags: options?.flags ?? []) {
            work.run()
        }
        timer.resume()
        return AnyCancellable {
            timer.cancel()
        }
    }

    /// An instant on the dispatch uptime clock, as in Combine.
    public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable {
        /// The dispatch time this instant stands for.
        public var dispatchTime: DispatchTime

        /// Wraps a dispatch time.
        public init(_ time: DispatchTime) {
            dispatchTime = time
        }

        /// The distance to `other`, in nanoseconds.
        ///
        /// Dispatch counts uptimes up to `Int64.max`; anything later stands for the distant future, and, as in
        /// Combine, the distance between such an instant and any other is the longest stride, in either direction.
        public func distance(to other: SchedulerTimeType) -> Stride {
            let start = dispatchTime.uptimeNanoseconds
            let end = other.dispatchTime.uptimeNanoseconds
            if start == end { return Stride(.nanoseconds(0)) }
            guard let from = Int64(exactly: start), let to = Int64(exactly: end) else {
                return Stride(.nanoseconds(.max))
            }
            // Both are at most Int64.max apart, so the difference cannot overflow.
            return Stride(.nanoseconds(Int(to - from)))
        }

        /// The instant `n` later (earlier if negative), saturating as Dispatch's own time arithmetic does: past
        /// `Int64.max` nanoseconds it is `DispatchTime.distantFuture`, and it is never earlier than one nanosecond after
        /// boot (zero means "now" to Dispatch). The distant future stays the distant future.
        public func advanced(by n: Stride) -> SchedulerTimeType {
            let base = dispatchTime.uptimeNanoseconds
            if base == DispatchTime.distantFuture.uptimeNanoseconds { return self }
            let moved: UInt64
            if n.magnitude >= 0 {
                let (sum, overflow) = base.addingReportingOverflow(UInt64(n.magnitude))
                guard !overflow, sum <= UInt64(Int64.max) else { return SchedulerTimeType(.distantFuture) }
                moved = sum
            } else {
                let back = UInt64(n.magnitude.magnitude)
                moved = base > back ? base - back : 1
            }
            return SchedulerTimeType(DispatchTime(uptimeNanoseconds: max(moved, 1)))
        }

        /// Orders instants by uptime.
        public static func < (lhs: SchedulerTimeType, rhs: SchedulerTimeType) -> Bool {
            lhs.dispatchTime.uptimeNanoseconds < rhs.dispatchTime.uptimeNanoseconds
        }

        /// Equal when the uptimes are.
        public static func == (lhs: SchedulerTimeType, rhs: SchedulerTimeType) -> Bool {
            lhs.dispatchTime.uptimeNanoseconds == rhs.dispatchTime.uptimeNanoseconds
        }

        /// Hashes the uptime.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(dispatchTime.uptimeNanoseconds)
        }

        /// Decodes the uptime in nanoseconds.
        public init(from decoder: any Decoder) throws {
            let nanoseconds = try decoder.singleValueContainer().decode(UInt64.self)
            dispatchTime = DispatchTime(uptimeNanoseconds: nanoseconds)
        }

        /// Encodes the uptime in nanoseconds.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(dispatchTime.uptimeNanoseconds)
        }

        /// A distance on the dispatch clock in nanoseconds; integer and float literals count seconds, as in Combine.
        public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, ExpressibleByFloatLiteral,
            Hashable, Codable, Sendable
        {
            /// The signed length in nanoseconds.
            public var magnitude: Int

            /// Combine's coding key for the length.
            private enum CodingKeys: String, CodingKey {
                case magnitude = "_nanoseconds"
            }

            /// The length as a dispatch interval.
            public var timeInterval: DispatchTimeInterval {
                .nanoseconds(magnitude)
            }

            /// A stride of the given dispatch interval (`.never` counts as the longest stride).
            public init(_ timeInterval: DispatchTimeInterval) {
                magnitude = Stride.nanoseconds(of: timeInterval)
            }

            /// A float literal counts seconds.
            public init(floatLiteral value: Double) {
                magnitude = Stride.clamped(value * 1_000_000_000)
            }

            /// An integer literal counts seconds.
            public init(integerLiteral value: Int) {
                magnitude = Stride.saturatingProduct(value, 1_000_000_000)
            }

            /// An exact integer counts seconds; nil if it does not fit.
            public init?<T: BinaryInteger>(exactly source: T) {
                guard let seconds = Int(exactly: source) else { return nil }
                let (value, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
                if overflow { return nil }
                magnitude = value
            }

            /// A whole number of seconds.
            public static func seconds(_ s: Int) -> Stride { Stride(.seconds(s)) }
            /// A fractional number of seconds.
            public static func seconds(_ s: Double) -> Stride { Stride(floatLiteral: s) }
            /// A whole number of milliseconds.
            public static func milliseconds(_ ms: Int) -> Stride { Stride(.milliseconds(ms)) }
            /// A whole number of microseconds.
            public static func microseconds(_ us: Int) -> Stride { Stride(.microseconds(us)) }
            /// A whole number of nanoseconds.
            public static func nanoseconds(_ ns: Int) -> Stride { Stride(.nanoseconds(ns)) }

            /// Orders by length.
            public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }
            /// Adds lengths, saturating.
            public static func + (lhs: Stride, rhs: Stride) -> Stride {
                let (sum, overflow) = lhs.magnitude.addingReportingOverflow(rhs.magnitude)
                return Stride(.nanoseconds(overflow ? (rhs.magnitude > 0 ? Int.max : Int.min) : sum))
            }
            /// Subtracts lengths, saturating.
            public static func - (lhs: Stride, rhs: Stride) -> Stride {
                let (difference, overflow) = lhs.magnitude.subtractingReportingOverflow(rhs.magnitude)
                return Stride(.nanoseconds(overflow ? (rhs.magnitude < 0 ? Int.max : Int.min) : difference))
            }
            /// Multiplies the lengths in seconds, so `.seconds(2) * 3` (a literal, three seconds) is six seconds.
            public static func * (lhs: Stride, rhs: Stride) -> Stride {
                Stride(floatLiteral: Double(lhs.magnitude) / 1_000_000_000 * Double(rhs.magnitude) / 1_000_000_000)
            }
            /// Adds in place.
            public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }
            /// Subtracts in place.
            public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }
            /// Multiplies in place.
            public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }

            private static func nanoseconds(of interval: DispatchTimeInterval) -> Int {
                switch interval {
                case .seconds(let s): return saturatingProduct(s, 1_000_000_000)
                case .milliseconds(let ms): return saturatingProduct(ms, 1_000_000)
                case .microseconds(let us): return saturatingProduct(us, 1_000)
                case .nanoseconds(let ns): return ns
                case .never: return Int.max
                @unknown default: return Int.max
                }
            }

            private static func saturatingProduct(_ a: Int, _ b: Int) -> Int {
                let (product, overflow) = a.multipliedReportingOverflow(by: b)
                return overflow ? ((a < 0) == (b < 0) ? Int.max : Int.min) : product
            }

            private static func clamped(_ value: Double) -> Int {
                if value.isNaN { return 0 }
                if value >= Double(Int.max) { return Int.max }
                if value <= Double(Int.min) { return Int.min }
                return Int(value.rounded())
            }
        }
    }
}
