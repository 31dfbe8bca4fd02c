import Foundation
import Testing
@testable import TegulaWarp

/// The refinement grid's reported error is an upper bound on what interpolation actually misses,
/// checked against exact evaluation at every pixel of a block.
struct MappingGridTests {
    /// A mapping given by a closure of the EPSG:3857 point.
    struct Evaluator: MappingEvaluator {
        let f: (Double, Double) -> (Double, Double)
        func sourcePixels(x: inout [Double], y: inout [Double]) {
            for i in x.indices { (x[i], y[i]) = f(x[i], y[i]) }
        }
        func projected(x: inout [Double], y: inout [Double]) {}
    }

    /// The largest distance between the grid's rows and exact values over the whole block.
    static func actualError(_ e: Evaluator, _ g: MappingGrid) -> Double {
        let sx = UnsafeMutablePointer<Double>.allocate(capacity: g.width), sy = UnsafeMutablePointer<Double>.allocate(capacity: g.width)
        defer { sx.deallocate(); sy.deallocate() }
        var worst = 0.0
        for j in 0..<g.height {
            g.row(j, sx: sx, sy: sy)
            for i in 0..<g.width {
                let (x, y) = e.f(Double(i) + 0.5, -(Double(j) + 0.5))
                worst = max(worst, abs(sx[i] - x), abs(sy[i] - y))
            }
        }
        return worst
    }

    static func grid(_ e: Evaluator) -> MappingGrid {
        MappingGrid(evaluator: e, left: 0, top: 0, resolution: 1, width: 300, height: 200)
    }

    @Test func affineNeedsNoRefinement() {
        let e = Evaluator { x, y in (2 * x + 0.5 * y + 10, -0.3 * x - 1.5 * y) }
        let g = Self.grid(e)
        #expect(g.spacing == 16 && g.checkedError < 1e-9)
        #expect(Self.actualError(e, g) < 1e-9)
    }

    @Test func smoothCurvatureIsWithinTheReportedError() {
        let e = Evaluator { x, y in
            let ex: Double = 2e-4 * x * x + 1e-4 * x * y, ey: Double = 3e-4 * y * y
            return (x + ex, -y + ey)
        }
        let g = Self.grid(e)
        let actual = Self.actualError(e, g)
        #expect(g.spacing > 1 && g.spacing < 16, "spacing \(g.spacing)")
        #expect(g.checkedError <= MappingGrid.tolerance && actual <= g.checkedError, "actual \(actual) vs reported \(g.checkedError)")
    }

    /// A mapping too wiggly for any grid: evaluated at every pixel, exact, reported as 0.
    @Test func exactEvaluationReportsZero() {
        let e = Evaluator { x, y in
            let wx: Double = 3 * sin(x * 1.3) * cos(y * 0.9), wy: Double = 2 * sin(y * 1.7)
            return (x + wx, -y + wy)
        }
        let g = Self.grid(e)
        #expect(g.spacing == 1 && g.checkedError == 0)
        #expect(Self.actualError(e, g) == 0)
    }
}
