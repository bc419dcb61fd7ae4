extension Subscribers {
    /// A requested number of items, sent to a publisher from a subscriber through the subscription.
    ///
    /// Arithmetic saturates as in Combine: anything involving `.unlimited` stays unlimited (except subtracting
    /// `.unlimited` from a finite demand, which gives `.none`), an overflow becomes `.unlimited`, and a result that
    /// would be negative is `.none`. `.max(_:)` with a negative value traps, as Combine does.
    @frozen
    public struct Demand: Equatable, Comparable, Hashable, Codable, CustomStringConvertible, Sendable {
        /// Finite demands are 0...Int.max; this value, one past, stands for unlimited.
        @usableFromInline
        internal let rawValue: UInt

        @inlinable
        internal init(rawValue: UInt) {
            self.rawValue = min(UInt(Int.max) + 1, rawValue)
        }

        /// Unlimited demand. (A computed, inlinable property rather than a stored `let`, so hot paths compare against
        /// a constant instead of going through a lazily initialized global on every element.)
        @inlinable
        public static var unlimited: Demand { Demand(rawValue: UInt(Int.max) + 1) }

        /// No elements.
        @inlinable
        public static var none: Demand { Demand(rawValue: 0) }

        /// A finite demand of `value` elements. `value` must not be negative.
        @inlinable
        public static func max(_ value: Int) -> Demand {
            precondition(value >= 0, "demand cannot be negative")
            return Demand(rawValue: UInt(value))
        }

        /// The finite number of elements requested, or nil when unlimited.
        @inlinable
        public var max: Int? {
            self == .unlimited ? nil : Int(rawValue)
        }

        /// `unlimited`, or `max(n)`.
        public var description: String {
            self == .unlimited ? "unlimited" : "max(\(rawValue))"
        }

        /// Adds demands; anything plus `.unlimited` is `.unlimited`, and overflow saturates to `.unlimited`.
        @inlinable
        public static func + (lhs: Demand, rhs: Demand) -> Demand {
            if lhs == .unlimited || rhs == .unlimited { return .unlimited }
            let (sum, overflow) = Int(lhs.rawValue).addingReportingOverflow(Int(rhs.rawValue))
            return overflow ? .unlimited : Demand(rawValue: UInt(sum))
        }

        /// Adds a number of elements; a negative `rhs` subtracts.
        @inlinable
        public static func + (lhs: Demand, rhs: Int) -> Demand {
            if lhs == .unlimited { return .unlimited }
            let (sum, overflow) = Int(lhs.rawValue).addingReportingOverflow(rhs)
            if overflow { return rhs < 0 ? .none : .unlimited }
            return sum < 0 ? .none : Demand(rawValue: UInt(sum))
        }

        /// Subtracts demands; `.unlimited` minus anything is `.unlimited`, a finite demand minus `.unlimited` is `.none`,
        /// and a negative result is `.none`.
        @inlinable
        public static func - (lhs: Demand, rhs: Demand) -> Demand {
            if lhs == .unlimited { return .unlimited }
            if rhs == .unlimited { return .none }
            return lhs.rawValue <= rhs.rawValue ? .none : Demand(rawValue: lhs.rawValue - rhs.rawValue)
        }

        /// Subtracts a number of elements; a negative result is `.none`, and so is one that overflows (as in Combine,
        /// `.max(Int.max) - (-1)` is `.none`).
        @inlinable
        public static func - (lhs: Demand, rhs: Int) -> Demand {
            if lhs == .unlimited { return .unlimited }
            let (difference, overflow) = Int(lhs.rawValue).subtractingReportingOverflow(rhs)
            if overflow { return .none }
            return difference < 0 ? .none : Demand(rawValue: UInt(difference))
        }

        /// Multiplies a demand; `.unlimited` stays unlimited and overflow saturates to `.unlimited`.
        @inlinable
        public static func * (lhs: Demand, rhs: Int) -> Demand {
            if lhs == .unlimited { return .unlimited }
            precondition(rhs >= 0, "demand cannot be multiplied by a negative number")
            let (product, overflow) = Int(lhs.rawValue).multipliedReportingOverflow(by: rhs)
            return overflow ? .unlimited : Demand(rawValue: UInt(product))
        }

        /// Adds in place.
        @inlinable
        public static func += (lhs: inout Demand, rhs: Demand) { lhs = lhs + rhs }
        /// Adds a number of elements in place.
        @inlinable
        public static func += (lhs: inout Demand, rhs: Int) { lhs = lhs + rhs }
        /// Subtracts in place.
        @inlinable
        public static func -= (lhs: inout Demand, rhs: Demand) { lhs = lhs - rhs }
        /// Subtracts a number of elements in place.
        @inlinable
        public static func -= (lhs: inout Demand, rhs: Int) { lhs = lhs - rhs }
        /// Multiplies in place.
        @inlinable
        public static func *= (lhs: inout Demand, rhs: Int) { lhs = lhs * rhs }

        /// Orders demands; `.unlimited` is greater than every finite demand.
        @inlinable
        public static func < (lhs: Demand, rhs: Demand) -> Bool { lhs.rawValue < rhs.rawValue }

        /// True when a finite demand is greater than `rhs`; `.unlimited` is greater than every number.
        @inlinable
        public static func > (lhs: Demand, rhs: Int) -> Bool { lhs == .unlimited || Int(lhs.rawValue) > rhs }
        /// True when a finite demand is at least `rhs`; `.unlimited` is greater than every number.
        @inlinable
        public static func >= (lhs: Demand, rhs: Int) -> Bool { lhs == .unlimited || Int(lhs.rawValue) >= rhs }
        /// True when `lhs` is greater than a finite demand; never true against `.unlimited`.
        @inlinable
        public static func > (lhs: Int, rhs: Demand) -> Bool { rhs != .unlimited && lhs > Int(rhs.rawValue) }
        /// True when `lhs` is at least a finite demand; never true against `.unlimited`.
        @inlinable
        public static func >= (lhs: Int, rhs: Demand) -> Bool { rhs != .unlimited && lhs >= Int(rhs.rawValue) }
        /// True when a finite demand is less than `rhs`; never true for `.unlimited`.
        @inlinable
        public static func < (lhs: Demand, rhs: Int) -> Bool { lhs != .unlimited && Int(lhs.rawValue) < rhs }
        /// True when `lhs` is less than the demand; always true against `.unlimited`.
        @inlinable
        public static func < (lhs: Int, rhs: Demand) -> Bool { rhs == .unlimited || lhs < Int(rhs.rawValue) }
        /// True when a finite demand is at most `rhs`; never true for `.unlimited`.
        @inlinable
        public static func <= (lhs: Demand, rhs: Int) -> Bool { lhs != .unlimited && Int(lhs.rawValue) <= rhs }
        /// True when `lhs` is at most the demand; always true against `.unlimited`.
        @inlinable
        public static func <= (lhs: Int, rhs: Demand) -> Bool { rhs == .unlimited || lhs <= Int(rhs.rawValue) }
        /// True when a finite demand equals `rhs`; `.unlimited` equals no number.
        @inlinable
        public static func == (lhs: Demand, rhs: Int) -> Bool { lhs != .unlimited && Int(lhs.rawValue) == rhs }
        /// True when a finite demand differs from `rhs`; `.unlimited` differs from every number.
        @inlinable
        public static func != (lhs: Demand, rhs: Int) -> Bool { !(lhs == rhs) }
        /// True when `lhs` equals a finite demand.
        @inlinable
        public static func == (lhs: Int, rhs: Demand) -> Bool { rhs == lhs }
        /// True when `lhs` differs from the demand.
        @inlinable
        public static func != (lhs: Int, rhs: Demand) -> Bool { !(rhs == lhs) }
        /// Decodes the raw count Combine encodes.
        public init(from decoder: any Decoder) throws {
            self.init(rawValue: try decoder.singleValueContainer().decode(UInt.self))
        }

        /// Encodes the raw count, as Combine does.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }
    }
}
