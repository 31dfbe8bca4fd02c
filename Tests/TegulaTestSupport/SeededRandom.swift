import Foundation

/// The random numbers of a test, reproducible: SplitMix64 from a seed that is fresh each run
/// (or `TEGULA_TEST_SEED`, to replay one), which a test names in every failure it records so the
/// failing run can be replayed exactly (`TEGULA_TEST_SEED=S swift test --filter …`).
public struct SeededRandom: RandomNumberGenerator, Sendable {
    /// The seed this generator started from.
    public let seed: UInt64
    private var state: UInt64

    /// A generator from `seed`; nil takes `TEGULA_TEST_SEED`, else a fresh random seed.
    public init(seed: UInt64? = nil) {
        let given = ProcessInfo.processInfo.environment["TEGULA_TEST_SEED"].flatMap { UInt64($0) }
        self.seed = seed ?? given ?? UInt64.random(in: 0...UInt64.max)
        state = self.seed
    }

    /// SplitMix64's next value.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// What to append to a failure message: the seed and how to replay it.
    public var replay: String { "seed \(seed) (replay: TEGULA_TEST_SEED=\(seed))" }
}
