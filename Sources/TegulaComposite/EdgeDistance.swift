import TegulaGeometry

/// How far each pixel centre of a composite block lies from a map's footprint outline (its mask,
/// else its scan's border, in EPSG:3857 as ``WarpSource/footprint`` gives it), in pixels of the
/// block: the exact distance to the nearest edge of the outline, capped at ``cap``. A function of
/// the outline and the pixel's place alone — not of the block's neighbours, nor of which blocks
/// a shard builds — so seams blended with it come out the same however the composite is split.
struct EdgeDistance {
    /// The outline's edges that can be nearest to some pixel of the block within the cap, in
    /// block pixels (x right, y down): (ax, ay, bx, by).
    let edges: [(Double, Double, Double, Double)]
    /// Distances beyond it read as it (`.infinity`: uncapped).
    let cap: Double

    /// The distances for a block of `side` × `side` pixels of `resolution` metres whose top-left
    /// corner is (`left`, `top`) in EPSG:3857.
    init(ring: [ProjectedPoint], left: Double, top: Double, resolution: Double, side: Int, cap: Double) {
        self.cap = cap
        let points = ring.map { (x: ($0.x - left) / resolution, y: (top - $0.y) / resolution) }
        var all: [(Double, Double, Double, Double)] = []
        all.reserveCapacity(points.count)
        for k in points.indices {
            let a = points[k], b = points[(k + 1) % points.count]
            all.append((a.x, a.y, b.x, b.y))
        }
        // An edge can be nearest to a pixel p only if it lies within d(p) ≤ d(centre) + half the
        // block's diagonal of the block, and matters only within the cap: keep those whose box
        // comes that close to the block (a box's distance never exceeds its edge's).
        let s = Double(side), c = s / 2
        let centre = all.reduce(Double.infinity) { min($0, EdgeDistance.segment(c, c, $1)) }
        let bound = min(cap, centre + s * 0.5 * 2.0.squareRoot())
        edges = all.filter { e in
            let dx = max(0, min(e.0, e.2) - s, -max(e.0, e.2))
            let dy = max(0, min(e.1, e.3) - s, -max(e.1, e.3))
            return (dx * dx + dy * dy).squareRoot() <= bound
        }
    }

    /// The distance of pixel (`i`, `j`)'s centre, capped.
    @inline(__always)
    func at(_ i: Int, _ j: Int) -> Double {
        let x = Double(i) + 0.5, y = Double(j) + 0.5
        var d = cap
        for e in edges { d = min(d, EdgeDistance.segment(x, y, e)) }
        return d
    }

    /// Distance from (`x`, `y`) to the segment `e`.
    @inline(__always)
    static func segment(_ x: Double, _ y: Double, _ e: (Double, Double, Double, Double)) -> Double {
        let vx = e.2 - e.0, vy = e.3 - e.1, wx = x - e.0, wy = y - e.1
        let l2 = vx * vx + vy * vy
        let t = l2 > 0 ? min(max((wx * vx + wy * vy) / l2, 0), 1) : 0
        let dx = wx - t * vx, dy = wy - t * vy
        return (dx * dx + dy * dy).squareRoot()
    }
}
