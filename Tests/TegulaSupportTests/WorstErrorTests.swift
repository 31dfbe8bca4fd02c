import TegulaSupport
import Testing

/// ``WorstError``, the one maximum of errors: the largest wins, and one NaN anywhere makes the
/// whole NaN, where `max` and `Array.max()` keep or drop a NaN by where it stands.
struct WorstErrorTests {
    @Test func theLargestErrorIsTheWorstAndNoErrorsAtAllIsZero() {
        var worst = WorstError()
        #expect(worst.value == 0)
        worst.add(0.25, 3, 1.5)
        worst.add(2)
        #expect(worst.value == 3)
        worst.add(.infinity)
        #expect(worst.value == .infinity)
    }

    /// A NaN first, in the middle or last: `Array.max()` keeps it only when it is first (every
    /// comparison with NaN is false), which is the hole this type closes.
    @Test(arguments: [[Double.nan, 1, 2], [1, .nan, 2], [1, 2, .nan], [.nan]])
    func oneNaNAnywhereMakesTheWorstNaN(errors: [Double]) {
        var worst = WorstError()
        for e in errors { worst.add(e) }
        #expect(worst.value.isNaN, "\(errors) gave \(worst.value)")
        var variadic = WorstError()
        variadic.add(errors[0], errors[errors.count - 1])
        #expect(variadic.value.isNaN == (errors.first!.isNaN || errors.last!.isNaN))
        #expect(WorstError.of(errors)?.isNaN == true)
        // What the fix replaces: the standard library's maximum drops a NaN that is not first.
        #expect(errors.max()!.isNaN == errors[0].isNaN)
    }

    @Test func aNaNStaysWhateverComesAfterIt() {
        var worst = WorstError()
        worst.add(5, .nan)
        worst.add(1e300, .infinity, 0)
        #expect(worst.value.isNaN)
    }

    @Test func theWorstOfNoErrorsIsNilSoAnUnmeasuredFigureIsNotZero() {
        #expect(WorstError.of([Double]()) == nil)
        #expect(WorstError.of([0.0]) == 0)
        #expect(WorstError.of([4, 9, 1]) == 9)
        #expect(WorstError.of([4, 9, 1].lazy.map { $0 / 2 }) == 4.5)
        #expect(WorstError.of([.nan, 9]).map(\.isNaN) == true)
    }

    /// A bound written `worst <= tolerance` fails on NaN with this type; with `max` it passed.
    @Test func aToleranceCheckFailsOnNaN() {
        var worst = WorstError()
        var dropped = 0.0
        for e in [0.1, .nan, 0.2] {
            worst.add(e)
            dropped = max(dropped, e)
        }
        #expect(!(worst.value <= 1))
        #expect(dropped <= 1, "Swift's max(0.1, .nan) keeps 0.1: the NaN escaped")
    }
}
