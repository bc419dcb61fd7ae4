import Foundation

/// SplitMix64 (Steele, Lea and Flood): a tiny, fast generator whose sequence depends only on its seed.
///
/// The demo corpus must be identical on every machine and Swift version, so it draws from this and its own
/// range helpers instead of the standard library's `random(in:)`, whose algorithm is not promised to stay fixed.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Starts the sequence for `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in `0..<bound` by multiply-shift (bias below 2⁻³² for the bounds used here); 0 when `bound` ≤ 0.
    public mutating func below(_ bound: Int) -> Int {
        guard bound > 0 else { return 0 }
        return Int(next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    /// A value in `0..<1`.
    public mutating func unit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// True with probability `p`.
    public mutating func chance(_ p: Double) -> Bool { unit() < p }

    /// A skewed rank in `0..<count`: rank r is drawn with probability roughly proportional to 1/(r+1), as for
    /// Zipf's law with exponent 1 — a few users post most tweets, a few words make most text.
    public mutating func zipf(_ count: Int) -> Int {
        guard count > 1 else { return 0 }
        // Log-uniform over 1...count+1 has density ∝ 1/x: Zipf with exponent 1.
        let rank = Int(pow(Double(count + 1), unit())) - 1
        return min(max(rank, 0), count - 1)
    }

    /// An element of a non-empty array, uniformly.
    public mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}
