/// The largest of a series of errors, where one NaN makes the whole NaN. A loop of
/// `worst = max(worst, e)` silently drops NaN (every comparison with NaN is false, so `max`
/// keeps `worst`), and `worst <= tolerance` then passes however broken the values were; with
/// this, a NaN anywhere fails the check.
public struct WorstError: Sendable {
    public private(set) var value = 0.0

    public init() {}

    /// Takes `errors` into account.
    public mutating func add(_ errors: Double...) {
        for e in errors where !value.isNaN {
            if e.isNaN || e > value { value = e }
        }
    }
}
