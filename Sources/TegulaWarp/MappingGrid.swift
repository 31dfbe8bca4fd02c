import Foundation

/// Source pixel coordinates for every pixel of an output block, interpolated from exact values
/// on a grid whose spacing is refined until the interpolation error is at most ``tolerance``.
///
/// The check: exact values are computed on a grid of half the spacing; if interpolating the
/// coarse grid reproduces every in-between exact value within the tolerance, the fine grid is
/// used (its own error is then smaller still). Otherwise the spacing halves, down to exact
/// evaluation at every pixel.
struct MappingGrid {
    /// Maximum interpolation error accepted, in source pixels.
    static let tolerance = 0.01

    let width: Int
    let height: Int
    /// Node spacing in output pixels.
    let spacing: Int
    let columns: Int  // nodes per row
    let rows: Int
    var nodeX: [Double]
    var nodeY: [Double]
    /// The largest interpolation error found by the check, in source pixels: an upper bound on
    /// the grid's own error (0 when it is exact at every pixel).
    var checkedError: Double

    /// Output pixel (i, j) of the block has its centre at
    /// (left + (i + 0.5)·res, top − (j + 0.5)·res) in EPSG:3857.
    init(evaluator: MappingEvaluator, left: Double, top: Double, resolution: Double,
         width: Int, height: Int, initialSpacing: Int = 32) {
        self.width = width
        self.height = height
        var spacing = max(1, initialSpacing)
        while true {
            let fine = max(1, spacing / 2)
            let (fx, fy, fc, fr) = MappingGrid.evaluate(evaluator, left: left, top: top, res: resolution,
                                                        width: width, height: height, spacing: fine)
            if fine == spacing {  // spacing 1: exact everywhere
                self.spacing = fine; columns = fc; rows = fr; nodeX = fx; nodeY = fy; checkedError = 0
                return
            }
            let err = MappingGrid.coarseError(fx, fy, fc, fr, width: width, height: height, fine: fine)
            if err <= MappingGrid.tolerance || fine == 1 {
                // At spacing 1 every pixel is a node, so the result is exact whatever the coarse
                // grid missed by.
                self.spacing = fine; columns = fc; rows = fr; nodeX = fx; nodeY = fy; checkedError = fine == 1 ? 0 : err
                return
            }
            spacing = fine
        }
    }

    /// Node positions along an axis of `n` pixels: 0, s, 2s, … and always n − 1.
    static func nodePositions(_ n: Int, _ s: Int) -> [Int] {
        var p = Array(stride(from: 0, to: n, by: s))
        if p.last != n - 1 { p.append(n - 1) }
        return p
    }

    static func evaluate(_ e: MappingEvaluator, left: Double, top: Double, res: Double,
                         width: Int, height: Int, spacing: Int) -> ([Double], [Double], Int, Int) {
        let cx = nodePositions(width, spacing), cy = nodePositions(height, spacing)
        var xs = [Double](), ys = [Double]()
        xs.reserveCapacity(cx.count * cy.count)
        ys.reserveCapacity(cx.count * cy.count)
        for j in cy {
            for i in cx {
                xs.append(left + (Double(i) + 0.5) * res)
                ys.append(top - (Double(j) + 0.5) * res)
            }
        }
        e.sourcePixels(x: &xs, y: &ys)
        return (xs, ys, cx.count, cy.count)
    }

    /// How far interpolating every other node of the fine grid misses the nodes in between.
    static func coarseError(_ x: [Double], _ y: [Double], _ c: Int, _ r: Int,
                            width: Int, height: Int, fine: Int) -> Double {
        let px = nodePositions(width, fine), py = nodePositions(height, fine)
        // Coarse nodes: even indices, plus the last index.
        func coarse(_ n: Int) -> [Int] {
            var a = Array(stride(from: 0, to: n, by: 2))
            if a.last != n - 1 { a.append(n - 1) }
            return a
        }
        let cc = coarse(c), cr = coarse(r)
        var worst = 0.0
        for (rj, j) in (0..<r).enumerated() {
            // Bracketing coarse rows.
            let upper = cr.last { $0 <= j } ?? 0
            let lower = cr.first { $0 >= j } ?? (r - 1)
            let ty = lower == upper ? 0 : Double(py[j] - py[upper]) / Double(py[lower] - py[upper])
            _ = rj
            for i in 0..<c {
                let left = cc.last { $0 <= i } ?? 0
                let right = cc.first { $0 >= i } ?? (c - 1)
                if left == i && upper == j { continue }
                let tx = left == right ? 0 : Double(px[i] - px[left]) / Double(px[right] - px[left])
                func interp(_ v: [Double]) -> Double {
                    let a = v[upper * c + left], b = v[upper * c + right]
                    let d = v[lower * c + left], e = v[lower * c + right]
                    let top = a + (b - a) * tx, bottom = d + (e - d) * tx
                    return top + (bottom - top) * ty
                }
                let ex = x[j * c + i], ey = y[j * c + i]
                let ix = interp(x), iy = interp(y)
                if ex.isNaN || ix.isNaN { if ex.isNaN != ix.isNaN { worst = .infinity }; continue }
                worst = max(worst, abs(ix - ex), abs(iy - ey))
            }
        }
        return worst
    }

    /// Source coordinates for each pixel of output row `j`, written to `sx`, `sy` (width each).
    func row(_ j: Int, sx: UnsafeMutablePointer<Double>, sy: UnsafeMutablePointer<Double>) {
        let k = min(j / spacing, rows - 2 >= 0 ? rows - 2 : 0)
        let y0 = k * spacing
        let y1 = min((k + 1) * spacing, height - 1)
        let ty = rows < 2 || y1 == y0 ? 0 : Double(j - y0) / Double(y1 - y0)
        let r0 = k * columns, r1 = min(k + 1, rows - 1) * columns
        var c = 0
        while c < columns {
            let x0 = c * spacing
            let ax = nodeX[r0 + c] + (nodeX[r1 + c] - nodeX[r0 + c]) * ty
            let ay = nodeY[r0 + c] + (nodeY[r1 + c] - nodeY[r0 + c]) * ty
            if c == columns - 1 {
                sx[min(x0, width - 1)] = ax
                sy[min(x0, width - 1)] = ay
                break
            }
            let x1 = min((c + 1) * spacing, width - 1)
            let bx = nodeX[r0 + c + 1] + (nodeX[r1 + c + 1] - nodeX[r0 + c + 1]) * ty
            let by = nodeY[r0 + c + 1] + (nodeY[r1 + c + 1] - nodeY[r0 + c + 1]) * ty
            let span = Double(x1 - x0)
            let dx = (bx - ax) / span, dy = (by - ay) / span
            for i in x0..<x1 {
                let t = Double(i - x0)
                sx[i] = ax + dx * t
                sy[i] = ay + dy * t
            }
            c += 1
        }
    }

    /// Source pixels per output pixel along the source x and y axes near the block centre
    /// (lengths of the Jacobian's rows), at least 1: how much the kernel widens.
    var kernelScale: (x: Double, y: Double) {
        guard columns >= 2, rows >= 2 else { return (1, 1) }
        let c = min(columns / 2, columns - 2), r = min(rows / 2, rows - 2)
        let i = r * columns + c
        let s = Double(spacing)
        let dxdi = (nodeX[i + 1] - nodeX[i]) / s, dydi = (nodeY[i + 1] - nodeY[i]) / s
        let dxdj = (nodeX[i + columns] - nodeX[i]) / s, dydj = (nodeY[i + columns] - nodeY[i]) / s
        let sx = (dxdi * dxdi + dxdj * dxdj).squareRoot(), sy = (dydi * dydi + dydj * dydj).squareRoot()
        return (sx.isFinite ? max(1, sx) : 1, sy.isFinite ? max(1, sy) : 1)
    }

    /// The bounding box of the source coordinates, ignoring NaNs; nil if none is finite.
    var sourceBounds: (minX: Double, minY: Double, maxX: Double, maxY: Double)? {
        var a = Double.infinity, b = Double.infinity, c = -Double.infinity, d = -Double.infinity
        for k in nodeX.indices where nodeX[k].isFinite && nodeY[k].isFinite {
            a = min(a, nodeX[k]); b = min(b, nodeY[k]); c = max(c, nodeX[k]); d = max(d, nodeY[k])
        }
        return a.isFinite ? (a, b, c, d) : nil
    }
}
