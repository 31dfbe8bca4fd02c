import Foundation
import Testing
import TegulaSupport
@testable import TegulaWarp

/// The refinement grid keeps interpolation within its tolerance and reports the error it found,
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
        var worst = WorstError()
        for j in 0..<g.height {
            g.row(j, sx: sx, sy: sy)
            for i in 0..<g.width {
                let (x, y) = e.f(Double(i) + 0.5, -(Double(j) + 0.5))
                worst.add(abs(sx[i] - x), abs(sy[i] - y))
            }
        }
        return worst.value
    }

    static func grid(_ e: Evaluator) -> MappingGrid {
        MappingGrid(evaluator: e, left: 0, top: 0, resolution: 1, width: 300, height: 200)
    }

    @Test func affineNeedsNoRefinement() {
        let e = Evaluator { x, y in (2 * x + 0.5 * y + 10, -0.3 * x - 1.5 * y) }
        let g = Self.grid(e)
        // Cells of a full 32 px are checked at spacing 16; the thin last column and row of
        // this 300 × 200 block have no node in between at 16, so they are checked finer.
        #expect(g.spacingRange.upperBound == 16 && g.cells.filter { $0.spacing == 16 }.count == 9 * 6 && g.checkedError < 1e-9)
        #expect(Self.actualError(e, g) < 1e-9)
    }

    @Test func smoothCurvatureIsWithinTheReportedError() {
        let e = Evaluator { x, y in
            let ex: Double = 2e-4 * x * x + 1e-4 * x * y, ey: Double = 3e-4 * y * y
            return (x + ex, -y + ey)
        }
        let g = Self.grid(e)
        let actual = Self.actualError(e, g)
        #expect(g.spacingRange.lowerBound > 1 && g.spacingRange.lowerBound < 16, "spacing \(g.spacingRange)")
        #expect(g.checkedError <= MappingGrid.tolerance && actual <= g.checkedError, "actual \(actual) vs reported \(g.checkedError)")
    }

    /// A mapping too wiggly for any grid: evaluated at every pixel, exact, reported as 0.
    @Test func exactEvaluationReportsZero() {
        let e = Evaluator { x, y in
            let wx: Double = 3 * sin(x * 1.3) * cos(y * 0.9), wy: Double = 2 * sin(y * 1.7)
            return (x + wx, -y + wy)
        }
        let g = Self.grid(e)
        #expect(g.spacingRange == 1...1 && g.checkedError == 0)
        #expect(Self.actualError(e, g) == 0)
    }

    /// A sharp bump around one point (like a thin-plate spline near its GCP): only the cells
    /// near it are refined, and the whole block still keeps within the reported error.
    @Test func refinementStaysLocal() {
        let e = Evaluator { x, y in
            let dx = x - 100.5, dy = y + 60.5
            let bump: Double = 3 * exp(-(dx * dx + dy * dy) / 50)
            return (x + bump, -y + 0.5 * bump)
        }
        let g = Self.grid(e)
        #expect(g.spacingRange.lowerBound <= 4 && g.spacingRange.upperBound == 16, "\(g.spacingRange)")
        let refined = g.cells.filter { $0.spacing < 16 }.count
        #expect(refined < g.cells.count / 2, "\(refined) of \(g.cells.count) cells refined")
        let actual = Self.actualError(e, g)
        #expect(g.checkedError <= MappingGrid.tolerance && actual <= MappingGrid.tolerance, "actual \(actual) vs \(g.checkedError)")
    }
}
