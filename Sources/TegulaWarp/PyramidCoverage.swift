import CKernels
import TegulaGeometry

/// The pyramid's coverage rule, in one place: a max-zoom pixel is drawn (alpha 255 over an
/// opaque scan) when its centre maps inside the scan (0 ≤ sx < width, 0 ≤ sy < height, as
/// ``WarpKernel`` decides) and inside the mask; a pixel `k` zooms lower has the alpha the
/// pyramid's halving gives it, the mean of its four children's rounded half up
/// (`tegula_mean_alpha`, which `tegula_halve` calls), applied `k` times.
///
/// Tiles rendered on demand below the max zoom (``BlockWarper/warpReduced(_:samples:into:)``)
/// take their coverage from here, evaluating that tree over the 2^k × 2^k max-zoom centres under
/// each pixel: a square of them whose corners agree (all inside the scan and the mask with no
/// mask vertex in it, or all beyond one side of the scan or outside the mask with no vertex in
/// it) is uniform, else it splits in four, down to single centres. Positions come from the
/// tile's own transform grid, interpolated between pixel centres, so a centre within the grids'
/// tolerance of the border may fall the other way than in the pyramid.
struct PyramidCoverage {
    /// Levels below an output pixel the tree descends before a square is judged by its centre
    /// (a square 7 levels down weighs 1/16,384 of the pixel: under 0.02 of alpha).
    static let deepestLevel = 7

    let width: Int
    let height: Int
    let sourceWidth: Double
    let sourceHeight: Double
    /// Source positions of the output pixel centres (row by row), NaN where the transform fails.
    let sx: [Double]
    let sy: [Double]
    /// The mask in output pixel coordinates (x right, y down), nil without one.
    let mask: [EvenOddRule.Vertex]?

    /// Whether a max-zoom pixel whose centre maps to (`x`, `y`) lies inside a `width` × `height`
    /// scan (NaN: outside).
    @inline(__always)
    static func inScan(_ x: Double, _ y: Double, width: Double, height: Double) -> Bool {
        x >= 0 && y >= 0 && x < width && y < height
    }

    /// A parent's alpha from its four children's (the pyramid's halving).
    @inline(__always)
    static func parent(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) -> UInt8 {
        tegula_mean_alpha(UInt32(a), UInt32(b), UInt32(c), UInt32(d))
    }

    init(grid: MappingGrid, sourceWidth: Int, sourceHeight: Int, mask: [EvenOddRule.Vertex]?) {
        width = grid.width
        height = grid.height
        self.sourceWidth = Double(sourceWidth)
        self.sourceHeight = Double(sourceHeight)
        self.mask = mask
        var xs = [Double](repeating: .nan, count: grid.width * grid.height)
        var ys = xs
        xs.withUnsafeMutableBufferPointer { x in
            ys.withUnsafeMutableBufferPointer { y in
                for j in 0..<grid.height { grid.row(j, sx: x.baseAddress! + j * grid.width, sy: y.baseAddress! + j * grid.width) }
            }
        }
        sx = xs
        sy = ys
    }

    /// The source position of output point (`x`, `y`) in pixel units (pixel i's centre at
    /// i + 0.5): bilinear between the four nearest pixel centres, extrapolated at the block's edge.
    @inline(__always)
    func position(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        let gx = x - 0.5, gy = y - 0.5
        let i0 = min(max(Int(gx.rounded(.down)), 0), max(0, width - 2)), j0 = min(max(Int(gy.rounded(.down)), 0), max(0, height - 2))
        let i1 = min(i0 + 1, width - 1), j1 = min(j0 + 1, height - 1)
        let tx = gx - Double(i0), ty = gy - Double(j0)
        let a = j0 * width + i0, b = j0 * width + i1, c = j1 * width + i0, d = j1 * width + i1
        let top = (sx[a] + (sx[b] - sx[a]) * tx, sy[a] + (sy[b] - sy[a]) * tx)
        let bottom = (sx[c] + (sx[d] - sx[c]) * tx, sy[c] + (sy[d] - sy[c]) * tx)
        return (top.0 + (bottom.0 - top.0) * ty, top.1 + (bottom.1 - top.1) * ty)
    }

    /// Whether the max-zoom centre at output point (`x`, `y`) is drawn.
    @inline(__always)
    func drawn(_ x: Double, _ y: Double) -> Bool {
        let p = position(x, y)
        guard Self.inScan(p.x, p.y, width: sourceWidth, height: sourceHeight) else { return false }
        return mask.map { EvenOddRule.contains($0, x: x, y: y) } ?? true
    }

    /// Where a corner lies: inside (scan and mask), or outside and why (a side of the scan as a
    /// bit, 16 for the mask alone).
    @inline(__always)
    func state(_ x: Double, _ y: Double) -> (inside: Bool, sides: Int) {
        let p = position(x, y)
        var sides = 0
        if !(p.x >= 0) { sides |= 1 }
        if !(p.y >= 0) { sides |= 2 }
        if !(p.x < sourceWidth) { sides |= 4 }
        if !(p.y < sourceHeight) { sides |= 8 }
        let inMask = mask.map { EvenOddRule.contains($0, x: x, y: y) } ?? true
        return (sides == 0 && inMask, sides == 0 && !inMask ? 16 : sides)
    }

    /// Alpha of the square of `2^level` × `2^level` max-zoom pixels with top-left corner
    /// (`x`, `y`) and side `size` output pixels, `depth` levels below its output pixel.
    func alpha(x: Double, y: Double, size: Double, level: Int, depth: Int) -> UInt8 {
        if level == 0 || depth >= Self.deepestLevel { return drawn(x + size / 2, y + size / 2) ? 255 : 0 }
        let a = state(x, y), b = state(x + size, y), c = state(x, y + size), d = state(x + size, y + size)
        if !vertexInside(x: x, y: y, size: size) {
            if a.inside && b.inside && c.inside && d.inside { return 255 }
            if !a.inside && !b.inside && !c.inside && !d.inside {
                // Beyond one side of the scan together, or all in the scan and outside the mask.
                if a.sides & b.sides & c.sides & d.sides & 15 != 0 { return 0 }
                if a.sides == 16 && b.sides == 16 && c.sides == 16 && d.sides == 16 { return 0 }
            }
        }
        let h = size / 2
        return Self.parent(
            alpha(x: x, y: y, size: h, level: level - 1, depth: depth + 1),
            alpha(x: x + h, y: y, size: h, level: level - 1, depth: depth + 1),
            alpha(x: x, y: y + h, size: h, level: level - 1, depth: depth + 1),
            alpha(x: x + h, y: y + h, size: h, level: level - 1, depth: depth + 1))
    }

    /// True when every point the tree can ask about lies inside the scan, so that every pixel
    /// is opaque: each is interpolated between the four nearest pixel centres, or extrapolated
    /// at most half a step beyond them at the block's edge, so within half the largest step along
    /// a row plus half the largest along a column of the centres' bounds. Most tiles of a scan
    /// lie inside it: judging their (w + 1)² corners took 13 % of a cold pass over the benchmark's
    /// tiles below the max zoom (`perf`, 2026-11-27).
    func centresWellInside() -> Bool {
        guard width >= 2, height >= 2 else { return false }
        var lo = (x: Double.infinity, y: Double.infinity), hi = (x: -Double.infinity, y: -Double.infinity)
        var step = (xr: 0.0, yr: 0.0, xc: 0.0, yc: 0.0)
        for j in 0..<height {
            for i in 0..<width {
                let k = j * width + i, x = sx[k], y = sy[k]
                // NaN fails every comparison: a failed transform is never well inside.
                guard x >= 0, y >= 0 else { return false }
                lo = (min(lo.x, x), min(lo.y, y))
                hi = (max(hi.x, x), max(hi.y, y))
                if i > 0 { step.xr = max(step.xr, abs(x - sx[k - 1])); step.yr = max(step.yr, abs(y - sy[k - 1])) }
                if j > 0 { step.xc = max(step.xc, abs(x - sx[k - width])); step.yc = max(step.yc, abs(y - sy[k - width])) }
            }
        }
        let mx = (step.xr + step.xc) / 2, my = (step.yr + step.yc) / 2
        return lo.x - mx >= 0 && lo.y - my >= 0 && hi.x + mx < sourceWidth && hi.y + my < sourceHeight
    }

    /// Whether a mask vertex lies in the square (a corner of the mask may cut it between corners).
    @inline(__always)
    func vertexInside(x: Double, y: Double, size: Double) -> Bool {
        guard let mask else { return false }
        for v in mask where v.x >= x && v.x <= x + size && v.y >= y && v.y <= y + size { return true }
        return false
    }

    /// Every output pixel's alpha for `samples` × `samples` max-zoom pixels each (a power of
    /// two), into `out` (`width` × `height`). Pixel corners are judged once on the shared lattice;
    /// only pixels whose corners disagree descend the tree.
    func alphas(samples: Int, into out: UnsafeMutablePointer<UInt8>) {
        if mask == nil && centresWellInside() {
            out.update(repeating: 255, count: width * height)
            return
        }
        var level = 0
        while 1 << level < samples { level += 1 }
        let lw = width + 1
        var corners = [(inside: Bool, sides: Int)](repeating: (false, 0), count: lw * (height + 1))
        for j in 0...height { for i in 0...width { corners[j * lw + i] = state(Double(i), Double(j)) } }
        var vertexCells = Set<Int>()
        for v in mask ?? [] where v.x > -1 && v.y > -1 && v.x < Double(width + 1) && v.y < Double(height + 1) {
            let i = Int(v.x.rounded(.down)), j = Int(v.y.rounded(.down))
            for dj in -1...1 {
                for di in -1...1 where i + di >= 0 && i + di < width && j + dj >= 0 && j + dj < height {
                    vertexCells.insert((j + dj) * width + i + di)
                }
            }
        }
        for j in 0..<height {
            for i in 0..<width {
                let a = corners[j * lw + i], b = corners[j * lw + i + 1], c = corners[(j + 1) * lw + i], d = corners[(j + 1) * lw + i + 1]
                if !vertexCells.contains(j * width + i) {
                    if a.inside && b.inside && c.inside && d.inside { out[j * width + i] = 255; continue }
                    if !a.inside && !b.inside && !c.inside && !d.inside
                        && (a.sides & b.sides & c.sides & d.sides & 15 != 0 || (a.sides == 16 && b.sides == 16 && c.sides == 16 && d.sides == 16))
                    {
                        out[j * width + i] = 0
                        continue
                    }
                }
                out[j * width + i] = alpha(x: Double(i), y: Double(j), size: 1, level: level, depth: 0)
            }
        }
    }
}
