/// The even–odd fill rule for a ring of planar vertices (the last joined to the first), as SVG
/// and GDAL's rasterizer apply it: a point is inside when a ray from it crosses the ring an odd
/// number of times. An edge crosses the horizontal line at `y` when exactly one of its ends has
/// a y at or below it, so a vertex on the line counts once and a horizontal edge never.
///
/// The one home of the rule: footprints, polygon overlays and mask rasterizers all call it.
public enum EvenOddRule {
    /// A ring vertex: x to the right, y along the axis the scan lines run across.
    public typealias Vertex = (x: Double, y: Double)

    /// The x of every crossing of the ring with the horizontal line at `y`, sorted.
    public static func crossings(_ ring: [Vertex], y: Double) -> [Double] {
        var out: [Double] = []
        guard ring.count >= 3 else { return out }
        var a = ring[ring.count - 1]
        for b in ring {
            if (a.y <= y) != (b.y <= y) { out.append(a.x + (y - a.y) / (b.y - a.y) * (b.x - a.x)) }
            a = b
        }
        out.sort()
        return out
    }

    /// True when (x, y) lies inside the ring; a point exactly on an edge may count either way.
    public static func contains(_ ring: [Vertex], x: Double, y: Double) -> Bool {
        guard ring.count >= 3 else { return false }
        var inside = false
        var a = ring[ring.count - 1]
        for b in ring {
            if (a.y <= y) != (b.y <= y), x < a.x + (y - a.y) / (b.y - a.y) * (b.x - a.x) { inside.toggle() }
            a = b
        }
        return inside
    }

    /// The columns of a `width`-pixel row whose centres (column + 0.5) lie inside the ring, for
    /// the row whose centre line is `y`: between each pair of crossings, clipped to the row.
    public static func spans(_ ring: [Vertex], y: Double, width: Int) -> [Range<Int>] {
        let c = crossings(ring, y: y)
        var out: [Range<Int>] = []
        var k = 0
        while k + 1 < c.count {
            let first = max(0, Int((c[k] - 0.5).rounded(.up)))
            let end = min(width, Int((c[k + 1] - 0.5).rounded(.up)))
            if first < end { out.append(first..<end) }
            k += 2
        }
        return out
    }
}
