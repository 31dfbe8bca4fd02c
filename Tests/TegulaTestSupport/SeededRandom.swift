import Foundation
import TegulaSupport

/// The random numbers of a test, reproducible: SplitMix64 from a seed that is fresh each run
/// (or `TEGULA_TEST_SEED`, to replay one), which a test names in every failure it records so the
/// failing run can be replayed exactly (`TEGULA_TEST_SEED=S swift test --filter …`).
public struct SeededRandom: RandomNumberGenerator, Sendable {
    /// The seed this generator started from.
    public let seed: UInt64
    private var stream: SplitMix64

    /// A generator from `seed`; nil takes `TEGULA_TEST_SEED`, else a fresh random seed.
    public init(seed: UInt64? = nil) {
        let given = ProcessInfo.processInfo.environment["TEGULA_TEST_SEED"].flatMap { UInt64($0) }
        self.seed = seed ?? given ?? UInt64.random(in: 0...UInt64.max)
        stream = SplitMix64(seed: self.seed)
    }

    /// SplitMix64's next value.
    public mutating func next() -> UInt64 { stream.next() }

    /// What to append to a failure message: the seed and how to replay it.
    public var replay: String { "seed \(seed) (replay: TEGULA_TEST_SEED=\(seed))" }
}
