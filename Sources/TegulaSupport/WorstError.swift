/// The largest of a series of errors, where one NaN makes the whole NaN. A loop of
/// `worst = max(worst, e)` silently drops NaN (every comparison with NaN is false, so `max`
/// keeps `worst`), and `worst <= tolerance` then passes however broken the values were; with
/// this, a NaN anywhere fails the check. The one maximum of errors, for the warp's reported grid
/// error and the tests' bounds alike.
public struct WorstError: Sendable, Equatable {
    /// The largest error added so far; 0 when none, NaN once any was NaN.
    public private(set) var value = 0.0

    /// No errors yet (``value`` 0).
    public init() {}

    /// Takes `errors` into account.
    public mutating func add(_ errors: Double...) {
        for e in errors where !value.isNaN {
            if e.isNaN || e > value { value = e }
        }
    }

    /// The largest of `errors` (NaN if any is NaN, as ``value``); nil when there are none, so a
    /// figure that was never measured stays apart from a measured 0.
    public static func of(_ errors: some Sequence<Double>) -> Double? {
        var worst = WorstError(), any = false
        for e in errors {
            worst.add(e)
            any = true
        }
        return any ? worst.value : nil
    }
}
