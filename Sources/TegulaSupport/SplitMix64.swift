import Foundation

/// SplitMix64 (Steele, Lea and Flood 2014): a small, fast generator whose stream a seed fixes, for
/// figures that draw at random yet must come out the same on every run and machine.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Two independent draws of the standard normal distribution (Box–Muller), from two uniform
    /// draws in (0, 1).
    public mutating func normalPair() -> (Double, Double) {
        let u = (Double(next() >> 11) + 0.5) / 9_007_199_254_740_992, v = Double(next() >> 11) / 9_007_199_254_740_992
        let r = (-2 * log(u)).squareRoot()
        return (r * cos(2 * .pi * v), r * sin(2 * .pi * v))
    }
}
