import Foundation
import TegulaGeometry
import TegulaGeoreference
import TegulaSupport
import Testing

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

    /// An evaluator that records every point it is asked for, in EPSG:3857 metres.
    final class Recording: MappingEvaluator {
        let f: (Double, Double) -> (Double, Double)
        var asked: [(x: Double, y: Double)] = []
        init(_ f: @escaping (Double, Double) -> (Double, Double)) { self.f = f }
        func sourcePixels(x: inout [Double], y: inout [Double]) {
            for i in x.indices {
                asked.append((x[i], y[i]))
                (x[i], y[i]) = f(x[i], y[i])
            }
        }
        func projected(x: inout [Double], y: inout [Double]) {}
    }

    /// What the grid evaluated before it kept the coarser levels' nodes: the first level (every
    /// 16 px) whole, then every node of each level of each refined cell.
    static func nodesEvaluatedCellByCell(_ g: MappingGrid) -> Int {
        var n = MappingGrid.nodePositions(g.width, 16).count * MappingGrid.nodePositions(g.height, 16).count
        for c in g.cells {
            var s = 8
            while s >= c.spacing {
                n += MappingGrid.nodePositions(c.width, s).count * MappingGrid.nodePositions(c.height, s).count
                s /= 2
            }
        }
        return n
    }

    /// Refined cells evaluate only the nodes their coarser grid lacks, once each where cells
    /// share a border, and every node holds the exact value at its pixel: a gentle curvature
    /// over the whole block (every cell refined, the nodes evaluated in rows across the cells),
    /// two sharp bumps in far corners of a large block (the cells around each refined alone).
    @Test(arguments: [false, true])
    func refinedCellsEvaluateEachNodeOnce(bumps: Bool) {
        let size = bumps ? 1024 : 300
        func f(_ x: Double, _ y: Double) -> (Double, Double) {
            guard bumps else { return (x + 2e-4 * x * x + 1e-4 * x * y, -y + 3e-4 * y * y) }
            var b = 0.0
            for (cx, cy) in [(40.5, -50.5), (990.5, -1000.5)] {
                let dx = x - cx, dy = y - cy
                b += 3 * exp(-(dx * dx + dy * dy) / 50)
            }
            return (x + b, -y + 0.5 * b)
        }
        let e = Recording(f)
        let g = MappingGrid(evaluator: e, left: 0, top: 0, resolution: 1, width: size, height: bumps ? 1024 : 200)
        #expect(g.spacingRange.lowerBound < 8, "spacing \(g.spacingRange)")
        // Node centres are at pixel centres (x.5); the footprint's 4 probes are not.
        func centre(_ v: Double) -> Bool { (v - 0.5).truncatingRemainder(dividingBy: 1) == 0 }
        let nodes = e.asked.filter { centre($0.x) && centre(-$0.y) }
        #expect(e.asked.count - nodes.count == 4)
        var seen = Set<[Double]>()
        let repeated = nodes.filter { !seen.insert([$0.x, $0.y]).inserted }.count
        #expect(repeated == 0, "\(repeated) of \(nodes.count) nodes evaluated again")
        let before = Self.nodesEvaluatedCellByCell(g)
        print("mapping grid \(size) px, \(bumps ? "two bumps" : "curved"): \(nodes.count) nodes evaluated, \(before) cell by cell")
        #expect(nodes.count < before)
        var wrong = 0
        for c in g.cells {
            let px = MappingGrid.nodePositions(c.width, c.spacing), py = MappingGrid.nodePositions(c.height, c.spacing)
            for (j, y) in py.enumerated() {
                for (i, x) in px.enumerated() {
                    let exact = f(Double(c.x0 + x) + 0.5, -(Double(c.y0 + y) + 0.5))
                    if c.nodeX[j * c.columns + i] != exact.0 || c.nodeY[j * c.columns + i] != exact.1 { wrong += 1 }
                }
            }
        }
        #expect(wrong == 0)
    }

    /// The grid of a thin-plate spline (the 12 GCPs of GCPWarpTests, fitted in their EPSG:4326,
    /// so PROJ and the Newton inverse both run) stays within its tolerance of the exact inverse
    /// at every pixel of a zoom-8 block over the whole scan, refining around the GCPs.
    @Test func aTPSGridIsWithinItsToleranceOfTheExactInverseAtEveryPixel() throws {
        let (w, h) = GCPWarpTests.size
        let fit = try Georeferencer.fit(
            GCPWarpTests.gcps(), imageWidth: w, imageHeight: h,
            options: FitOptions(transform: .tps, fitCRS: .gcp))
        let mapping = try GCPMapping(width: w, height: h, georeference: fit)
        let corner = WebMercator.project(Coordinate(longitude: 4.9, latitude: 52.1))
        let res = WebMercator.resolution(zoom: 8), side = (width: 1024, height: 768)
        let grid = MappingGrid(
            evaluator: try mapping.makeEvaluator(), left: corner.x, top: corner.y, resolution: res,
            width: side.width, height: side.height)
        #expect(grid.spacingRange.lowerBound < 16, "spacing \(grid.spacingRange)")
        // Every pixel's exact inverse, in rows, from an evaluator of its own.
        var xs: [Double] = [], ys: [Double] = []
        for j in 0..<side.height {
            for i in 0..<side.width {
                xs.append(corner.x + (Double(i) + 0.5) * res)
                ys.append(corner.y - (Double(j) + 0.5) * res)
            }
        }
        try mapping.makeEvaluator().sourcePixels(x: &xs, y: &ys)
        let sx = UnsafeMutablePointer<Double>.allocate(capacity: side.width), sy = UnsafeMutablePointer<Double>.allocate(capacity: side.width)
        defer { sx.deallocate(); sy.deallocate() }
        var worst = WorstError(), inside = 0
        for j in 0..<side.height {
            grid.row(j, sx: sx, sy: sy)
            for i in 0..<side.width {
                let k = j * side.width + i
                guard xs[k] >= 0, ys[k] >= 0, xs[k] < Double(w), ys[k] < Double(h) else { continue }
                inside += 1
                worst.add(abs(sx[i] - xs[k]), abs(sy[i] - ys[k]))
            }
        }
        print(
            "tps grid over the scan at zoom 8: \(inside) pixels inside it, worst \(worst.value) source px from the exact inverse (tolerance \(MappingGrid.tolerance)), spacing \(grid.spacingRange)"
        )
        #expect(inside > side.width * side.height / 4)
        #expect(worst.value <= MappingGrid.tolerance)
    }
}
