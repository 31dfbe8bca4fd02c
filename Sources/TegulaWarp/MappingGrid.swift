import CKernels
import Foundation

/// Source pixel coordinates for every pixel of an output block, interpolated from exact values
/// on grids whose spacing is refined until the interpolation error is at most ``tolerance``.
///
/// The block is cut into cells of `initialSpacing` pixels, and each cell is refined on its own:
/// exact values are computed on a grid of half the spacing; if interpolating the coarse grid
/// reproduces every in-between exact value within the tolerance, the fine grid is used (its own
/// error is then smaller still). Otherwise that cell's spacing halves, down to exact evaluation
/// at every pixel. So a thin-plate spline, whose curvature is unbounded only right at its GCPs,
/// is evaluated pixel by pixel only in the cells around them, not across the whole block.
struct MappingGrid {
    /// Maximum interpolation error accepted by default, in source pixels.
    static let tolerance = 0.01

    /// A cell with its own node spacing: nodes at its pixel offsets 0, s, 2s, … and always its
    /// last pixel, which is the first of the next cell.
    struct Cell {
        /// The block pixel of the first node.
        let x0: Int
        let y0: Int
        /// Pixels spanned by the nodes, shared last row and column included.
        let width: Int
        let height: Int
        var spacing: Int
        var columns: Int
        var rows: Int
        var nodeX: [Double]
        var nodeY: [Double]
        /// The interpolation error found by the check (0 when exact at every pixel).
        var error: Double
    }

    let width: Int
    let height: Int
    /// Cell size in output pixels.
    let cellSize: Int
    let cellColumns: Int
    let cellRows: Int
    var cells: [Cell]
    /// The largest interpolation error found by the check, in source pixels (0 when exact at
    /// every pixel); the grid in use, twice as fine as the one checked, normally misses by less.
    var checkedError: Double
    /// Source pixels per output pixel along the source x and y axes near the block centre
    /// (lengths of the Jacobian's rows): an output pixel's footprint, which average covers.
    let footprint: (x: Double, y: Double)
    /// The footprint, at least 1: how much the other kernels widen.
    var kernelScale: (x: Double, y: Double) { (max(1, footprint.x), max(1, footprint.y)) }

    /// Output pixel (i, j) of the block has its centre at
    /// (left + (i + 0.5)·res, top − (j + 0.5)·res) in EPSG:3857.
    /// `tolerance`: the interpolation error accepted, in source pixels (default ``tolerance``).
    init(
        evaluator: MappingEvaluator, left: Double, top: Double, resolution: Double,
        width: Int, height: Int, initialSpacing: Int = 32, tolerance: Double = MappingGrid.tolerance
    ) {
        self.width = width
        self.height = height
        let size = max(1, initialSpacing)
        cellSize = size
        cellColumns = max(1, (width - 1 + size - 1) / size)
        cellRows = max(1, (height - 1 + size - 1) / size)
        // The first level in one evaluation over the whole block, then shared out to the cells.
        let first = max(1, size / 2)
        let (fx, fy, fc, fr) = MappingGrid.evaluate(
            evaluator, left: left, top: top, res: resolution,
            width: width, height: height, spacing: first)
        footprint = MappingGrid.centreScale(evaluator, left: left, top: top, res: resolution, width: width, height: height)
        var cells: [Cell] = []
        cells.reserveCapacity(cellColumns * cellRows)
        for cy in 0..<cellRows {
            for cx in 0..<cellColumns {
                let x0 = cx * size, y0 = cy * size
                let x1 = min(x0 + size, width - 1), y1 = min(y0 + size, height - 1)
                let i0 = x0 / first, j0 = y0 / first
                let i1 = x1 == width - 1 ? fc - 1 : x1 / first, j1 = y1 == height - 1 ? fr - 1 : y1 / first
                var nx: [Double] = [], ny: [Double] = []
                nx.reserveCapacity((i1 - i0 + 1) * (j1 - j0 + 1))
                ny.reserveCapacity((i1 - i0 + 1) * (j1 - j0 + 1))
                for j in j0...j1 {
                    nx += fx[(j * fc + i0)...(j * fc + i1)]
                    ny += fy[(j * fc + i0)...(j * fc + i1)]
                }
                cells.append(
                    Cell(
                        x0: x0, y0: y0, width: x1 - x0 + 1, height: y1 - y0 + 1, spacing: first,
                        columns: i1 - i0 + 1, rows: j1 - j0 + 1, nodeX: nx, nodeY: ny, error: 0))
            }
        }
        // Check every cell; refine the ones that miss, a level at a time, each level in one call.
        var pending: [Int] = []
        if size > 1 {
            for k in cells.indices {
                let c = cells[k]
                let err = MappingGrid.coarseError(c.nodeX, c.nodeY, c.columns, c.rows, width: c.width, height: c.height, fine: first)
                if err <= tolerance || first == 1 { cells[k].error = first == 1 ? 0 : err } else { pending.append(k) }
            }
        }
        var spacing = first
        while !pending.isEmpty {
            let coarse = spacing
            spacing = max(1, spacing / 2)
            // Only the nodes the cells do not have yet (a quarter of the finer grid's nodes are
            // the coarser one's), once each where cells share a border.
            let (xs, ys, layout) = MappingGrid.newNodes(
                evaluator, cells: cells, pending: pending, spacing: spacing,
                coarse: coarse, left: left, top: top, resolution: resolution,
                width: width, height: height)
            var still: [Int] = []
            for (n, k) in pending.enumerated() {
                let (cols, rows, start) = layout[n]
                let c = cells[k]
                assert(c.columns == MappingGrid.nodePositions(c.width, coarse).count && c.rows == MappingGrid.nodePositions(c.height, coarse).count)
                let px = MappingGrid.nodePositions(c.width, spacing), py = MappingGrid.nodePositions(c.height, spacing)
                var nx: [Double] = [], ny: [Double] = []
                nx.reserveCapacity(cols * rows)
                ny.reserveCapacity(cols * rows)
                var next = start
                for j in py {
                    let oj = MappingGrid.coarseIndex(j, c.height, coarse)
                    for i in px {
                        if let oj, let oi = MappingGrid.coarseIndex(i, c.width, coarse) {
                            nx.append(c.nodeX[oj * c.columns + oi])
                            ny.append(c.nodeY[oj * c.columns + oi])
                        } else {
                            nx.append(xs[next])
                            ny.append(ys[next])
                            next += 1
                        }
                    }
                }
                let err = spacing == 1 ? 0 : MappingGrid.coarseError(nx, ny, cols, rows, width: c.width, height: c.height, fine: spacing)
                cells[k].spacing = spacing; cells[k].columns = cols; cells[k].rows = rows
                cells[k].nodeX = nx; cells[k].nodeY = ny; cells[k].error = err
                if err > tolerance && spacing > 1 { still.append(k) }
            }
            pending = still
        }
        self.cells = cells
        checkedError = cells.reduce(0) { max($0, $1.error) }
    }

    /// The smallest and largest node spacing used by the cells.
    var spacingRange: ClosedRange<Int> {
        let s = cells.map(\.spacing)
        return (s.min() ?? 1)...(s.max() ?? 1)
    }

    /// Node positions along an axis of `n` pixels: 0, s, 2s, … and always n − 1.
    static func nodePositions(_ n: Int, _ s: Int) -> [Int] {
        var p = Array(stride(from: 0, to: n, by: s))
        if p.last != n - 1 { p.append(n - 1) }
        return p
    }

    /// The nodes at `spacing` that the `pending` cells lack (their grids at `coarse` have the
    /// rest), evaluated: each cell's in row-major order, starting at its `start`. A node on the
    /// border of two pending cells is evaluated once, and the nodes go to the evaluator in rows
    /// across the cells, so each Newton iteration continues from the node to its left (see
    /// ``NewtonStart``); on the 24-GCP TPS benchmark the pyramid evaluated 5.9 M nodes with
    /// every level whole and cell by cell, 3.6 M now (tiles byte-identical).
    static func newNodes(
        _ evaluator: MappingEvaluator, cells: [Cell], pending: [Int], spacing s: Int, coarse: Int,
        left: Double, top: Double, resolution: Double, width: Int, height: Int
    )
        -> (xs: [Double], ys: [Double], layout: [(columns: Int, rows: Int, start: Int)])
    {
        var layout: [(columns: Int, rows: Int, start: Int)] = []
        var total = 0
        for k in pending {
            let c = cells[k]
            let cols = nodePositions(c.width, s).count, rows = nodePositions(c.height, s).count
            layout.append((cols, rows, total))
            total += cols * rows - nodePositions(c.width, coarse).count * nodePositions(c.height, coarse).count
        }
        // The level's lattice: pixel 0, s, 2s, … and the block's last, along each axis; a
        // cell's nodes lie on it when its corner does.
        func lattice(_ p: Int, _ n: Int) -> Int { p % s == 0 ? p / s : (n - 1) / s + 1 }
        func pixel(_ l: Int, _ n: Int) -> Int { min(l * s, n - 1) }
        var lx0 = Int.max, ly0 = Int.max, lx1 = 0, ly1 = 0
        var onLattice = true
        for k in pending {
            let c = cells[k]
            let x1 = c.x0 + c.width - 1, y1 = c.y0 + c.height - 1
            onLattice =
                onLattice && c.x0 % s == 0 && c.y0 % s == 0
                && (x1 % s == 0 || x1 == width - 1) && (y1 % s == 0 || y1 == height - 1)
            lx0 = min(lx0, c.x0 / s); ly0 = min(ly0, c.y0 / s)
            lx1 = max(lx1, lattice(x1, width)); ly1 = max(ly1, lattice(y1, height))
        }
        let lw = lx1 - lx0 + 1, lh = ly1 - ly0 + 1
        var xs = [Double](), ys = [Double]()
        // Cells scattered over the block (around GCPs far apart) keep their own nodes: a lattice
        // over all of them would be mostly empty.
        guard onLattice, lw * lh <= 2 * total + 1024 else {
            // Each block pixel once, in the order the cells first ask for it.
            var index: [Int: Int] = [:]
            var order: [Int] = []
            order.reserveCapacity(total)
            for k in pending {
                let c = cells[k]
                let px = nodePositions(c.width, s), py = nodePositions(c.height, s)
                for j in py {
                    let kept = coarseIndex(j, c.height, coarse) != nil
                    for i in px where !kept || coarseIndex(i, c.width, coarse) == nil {
                        let key = (c.y0 + j) * width + c.x0 + i
                        if index[key] == nil {
                            index[key] = xs.count
                            xs.append(left + (Double(c.x0 + i) + 0.5) * resolution)
                            ys.append(top - (Double(c.y0 + j) + 0.5) * resolution)
                        }
                        order.append(index[key]!)
                    }
                }
            }
            evaluator.sourcePixels(x: &xs, y: &ys)
            return (order.map { xs[$0] }, order.map { ys[$0] }, layout)
        }
        // Mark the lattice points wanted (−2), number them row by row, evaluate them in that order.
        var slot = [Int32](repeating: -1, count: lw * lh)
        func forEachNew(_ c: Cell, _ body: (Int) -> Void) {
            let px = nodePositions(c.width, s), py = nodePositions(c.height, s)
            for j in py {
                let kept = coarseIndex(j, c.height, coarse) != nil
                let row = (lattice(c.y0 + j, height) - ly0) * lw - lx0
                for i in px where !kept || coarseIndex(i, c.width, coarse) == nil {
                    body(row + lattice(c.x0 + i, width))
                }
            }
        }
        for k in pending { forEachNew(cells[k]) { slot[$0] = -2 } }
        var count: Int32 = 0
        for l in slot.indices where slot[l] == -2 {
            slot[l] = count
            count += 1
            xs.append(left + (Double(pixel(lx0 + l % lw, width)) + 0.5) * resolution)
            ys.append(top - (Double(pixel(ly0 + l / lw, height)) + 0.5) * resolution)
        }
        evaluator.sourcePixels(x: &xs, y: &ys)
        var cx = [Double](), cy = [Double]()
        cx.reserveCapacity(total)
        cy.reserveCapacity(total)
        for k in pending {
            forEachNew(cells[k]) {
                let n = Int(slot[$0])
                cx.append(xs[n])
                cy.append(ys[n])
            }
        }
        return (cx, cy, layout)
    }

    /// The index among ``nodePositions(_:_:)``(n, s) of the node at pixel `p`, nil when that
    /// grid has no node there: a finer grid's node that the coarser one already has.
    static func coarseIndex(_ p: Int, _ n: Int, _ s: Int) -> Int? {
        if p % s == 0 { return p / s }
        return p == n - 1 ? (n - 1) / s + 1 : nil
    }

    static func evaluate(
        _ e: MappingEvaluator, left: Double, top: Double, res: Double,
        width: Int, height: Int, spacing: Int
    ) -> ([Double], [Double], Int, Int) {
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

    /// How far interpolating every other node of the fine grid misses the nodes in between;
    /// infinite when an axis has no node in between to check (a cell too small for the
    /// spacing), so it is refined rather than trusted unchecked.
    static func coarseError(
        _ x: [Double], _ y: [Double], _ c: Int, _ r: Int,
        width: Int, height: Int, fine: Int
    ) -> Double {
        let px = nodePositions(width, fine), py = nodePositions(height, fine)
        // Coarse nodes: even indices, plus the last index.
        func coarse(_ n: Int) -> [Int] {
            var a = Array(stride(from: 0, to: n, by: 2))
            if a.last != n - 1 { a.append(n - 1) }
            return a
        }
        let cc = coarse(c), cr = coarse(r)
        // Along an axis the coarse grid is checked only where the fine one has nodes in between;
        // with none, it is trusted only if its nodes are adjacent pixels (nothing to interpolate).
        func verified(_ coarseCount: Int, _ p: [Int]) -> Bool { p.count > coarseCount || p.last! - p.first! <= p.count - 1 }
        guard verified(cc.count, px), verified(cr.count, py) else { return .infinity }
        var worst = 0.0
        for j in 0..<r {
            // Bracketing coarse rows.
            let upper = cr.last { $0 <= j } ?? 0
            let lower = cr.first { $0 >= j } ?? (r - 1)
            let ty = lower == upper ? 0 : Double(py[j] - py[upper]) / Double(py[lower] - py[upper])
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
    /// With `columns`, only the cells interpolating those pixels are filled.
    func row(_ j: Int, sx: UnsafeMutablePointer<Double>, sy: UnsafeMutablePointer<Double>, columns: Range<Int>? = nil) {
        forEachSpan(j, columns: columns) { span in
            for i in span.start..<span.end {
                let t = Double(i - span.start)
                sx[i] = span.x + span.dx * t
                sy[i] = span.y + span.dy * t
            }
        }
    }

    /// Row `j` as the straight pieces the grid interpolates it in, left to right, into `spans`
    /// (room for ``maxSpans``); returns how many. With `columns`, only the cells interpolating
    /// those pixels. Pixel i of a span is at (x + dx·t, y + dy·t), t = i − start, in source pixels.
    func spans(_ j: Int, columns: Range<Int>? = nil, into spans: UnsafeMutablePointer<tegula_span>) -> Int {
        var n = 0
        forEachSpan(j, columns: columns) {
            spans[n] = $0; n += 1
        }
        return n
    }

    /// The most spans a row has: a span per pixel where a cell is exact at every pixel.
    var maxSpans: Int { width + cellColumns }

    @inline(__always)
    private func forEachSpan(_ j: Int, columns: Range<Int>?, _ body: (tegula_span) -> Void) {
        let cy = min(j / cellSize, cellRows - 1)
        let range = columns.map { cellRange($0) } ?? 0..<cellColumns
        for cx in range {
            let c = cells[cy * cellColumns + cx]
            // A cell covers its pixels up to, not including, the first of the next cell.
            let count = cx == cellColumns - 1 ? c.width : cellSize
            c.forEachSpan(j - c.y0, count: count) { start, end, x, y, dx, dy in
                body(tegula_span(start: c.x0 + start, end: c.x0 + end, x: x, y: y, dx: dx, dy: dy))
            }
        }
    }

    /// The cell columns whose pixels include the pixel columns `pixels`.
    func cellRange(_ pixels: Range<Int>) -> Range<Int> {
        min(pixels.lowerBound / cellSize, cellColumns - 1)..<(min((pixels.upperBound - 1) / cellSize, cellColumns - 1) + 1)
    }

    /// Lengths of the Jacobian's rows at the block's centre, from central differences one output
    /// pixel apart (1 where they are not finite and positive).
    static func centreScale(
        _ e: MappingEvaluator, left: Double, top: Double, res: Double,
        width: Int, height: Int
    ) -> (x: Double, y: Double) {
        let cx = left + Double(width) / 2 * res, cy = top - Double(height) / 2 * res, h = res / 2
        var xs = [cx - h, cx + h, cx, cx], ys = [cy, cy, cy + h, cy - h]
        e.sourcePixels(x: &xs, y: &ys)
        // Per output pixel: along i (east) and along j (south, so the second pair is reversed).
        let dxdi = xs[1] - xs[0], dydi = ys[1] - ys[0], dxdj = xs[3] - xs[2], dydj = ys[3] - ys[2]
        let sx = (dxdi * dxdi + dxdj * dxdj).squareRoot(), sy = (dydi * dydi + dydj * dydj).squareRoot()
        return (sx.isFinite && sx > 0 ? sx : 1, sy.isFinite && sy > 0 ? sy : 1)
    }

    /// The bounding box of the source coordinates, ignoring NaNs; nil if none is finite.
    var sourceBounds: (minX: Double, minY: Double, maxX: Double, maxY: Double)? {
        sourceBounds(columns: 0..<width, rows: 0..<height)
    }

    /// The bounding box of the source coordinates of the cells that interpolate the pixels
    /// `columns` × `rows` (every pixel's coordinates lie inside it), ignoring NaNs.
    func sourceBounds(columns: Range<Int>, rows: Range<Int>) -> (minX: Double, minY: Double, maxX: Double, maxY: Double)? {
        var a = Double.infinity, b = Double.infinity, c = -Double.infinity, d = -Double.infinity
        let cx0 = min(columns.lowerBound / cellSize, cellColumns - 1), cx1 = min((columns.upperBound - 1) / cellSize, cellColumns - 1)
        let cy0 = min(rows.lowerBound / cellSize, cellRows - 1), cy1 = min((rows.upperBound - 1) / cellSize, cellRows - 1)
        for cy in cy0...cy1 {
            for cx in cx0...cx1 {
                let cell = cells[cy * cellColumns + cx]
                for k in cell.nodeX.indices where cell.nodeX[k].isFinite && cell.nodeY[k].isFinite {
                    a = min(a, cell.nodeX[k]); b = min(b, cell.nodeY[k]); c = max(c, cell.nodeX[k]); d = max(d, cell.nodeY[k])
                }
            }
        }
        return a.isFinite ? (a, b, c, d) : nil
    }
}

extension MappingGrid.Cell {
    /// The first `count` pixels of the cell's row `j`, bilinear between its nodes, as straight
    /// pieces: `body(start, end, x, y, dx, dy)` for the pixels start..<end (cell offsets) at
    /// (x + dx·t, y + dy·t), t = pixel − start.
    @inline(__always)
    func forEachSpan(_ j: Int, count: Int, _ body: (Int, Int, Double, Double, Double, Double) -> Void) {
        let k = min(j / spacing, rows >= 2 ? rows - 2 : 0)
        let y0 = k * spacing
        let y1 = min((k + 1) * spacing, height - 1)
        let ty = rows < 2 || y1 == y0 ? 0 : Double(j - y0) / Double(y1 - y0)
        let r0 = k * columns, r1 = min(k + 1, rows - 1) * columns
        var c = 0
        while c < columns - 1 {
            let x0 = c * spacing
            if x0 >= count { return }
            let x1 = min((c + 1) * spacing, width - 1)
            let ax = nodeX[r0 + c] + (nodeX[r1 + c] - nodeX[r0 + c]) * ty
            let ay = nodeY[r0 + c] + (nodeY[r1 + c] - nodeY[r0 + c]) * ty
            let bx = nodeX[r0 + c + 1] + (nodeX[r1 + c + 1] - nodeX[r0 + c + 1]) * ty
            let by = nodeY[r0 + c + 1] + (nodeY[r1 + c + 1] - nodeY[r0 + c + 1]) * ty
            let span = Double(x1 - x0)
            body(x0, min(x1, count), ax, ay, (bx - ax) / span, (by - ay) / span)
            c += 1
        }
        // The last node column sits on the cell's last pixel.
        if width - 1 < count {
            let last = columns - 1
            body(
                width - 1, width, nodeX[r0 + last] + (nodeX[r1 + last] - nodeX[r0 + last]) * ty,
                nodeY[r0 + last] + (nodeY[r1 + last] - nodeY[r0 + last]) * ty, 0, 0)
        }
    }
}
