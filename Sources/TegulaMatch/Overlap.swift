import Foundation
import TegulaGeometry

/// Where two sheets overlap, in the first sheet's pixels: the points of a lattice inside both
/// polygons (the first sheet's mask, the second's carried into the first's pixels), each with its
/// clearance, the distance to the nearest edge of either. A template of half side t centred on a
/// point of clearance over t lies inside both sheets.
struct Overlap {
    /// Lattice points inside both polygons, row by row.
    private(set) var lattice: [PixelPoint] = []
    /// The clearance of each.
    private(set) var clearances: [Double] = []

    /// The lattice over the two polygons' common bounding box, one point per pixel (every few
    /// pixels when the box is over 800 pixels a side), at pixel centres.
    init(_ a: [PixelPoint], _ b: [PixelPoint]) {
        let all = [a, b].map { ring in
            (ring.map(\.x).min() ?? 0, ring.map(\.x).max() ?? 0, ring.map(\.y).min() ?? 0, ring.map(\.y).max() ?? 0)
        }
        let x0 = max(all[0].0, all[1].0), x1 = min(all[0].1, all[1].1), y0 = max(all[0].2, all[1].2), y1 = min(all[0].3, all[1].3)
        guard x0.isFinite, y0.isFinite, x1.isFinite, y1.isFinite, x0 < x1, y0 < y1 else { return }
        let step = max(1, Int(ceil(max(x1 - x0, y1 - y0) / 800)))
        for y in stride(from: Int(floor(y0)), through: Int(ceil(y1)), by: step) {
            for x in stride(from: Int(floor(x0)), through: Int(ceil(x1)), by: step) {
                let p = PixelPoint(x: Double(x) + 0.5, y: Double(y) + 0.5)
                guard Self.contains(a, p), Self.contains(b, p) else { continue }
                lattice.append(p)
                clearances.append(min(Self.distance(p, toEdgesOf: a), Self.distance(p, toEdgesOf: b)))
            }
        }
    }

    /// The largest clearance: half the overlap's width across.
    var widest: Double { clearances.max() ?? 0 }

    /// The lattice points of at least `clearance`.
    func points(clearance: Double) -> [PixelPoint] {
        lattice.indices.filter { clearances[$0] >= clearance }.map { lattice[$0] }
    }

    /// Even-odd rule.
    static func contains(_ ring: [PixelPoint], _ p: PixelPoint) -> Bool {
        var inside = false
        var j = ring.count - 1
        for i in ring.indices {
            let a = ring[i], b = ring[j]
            if (a.y > p.y) != (b.y > p.y), p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x { inside.toggle() }
            j = i
        }
        return inside
    }

    /// Whether the four corners of the box centred on `p`, `ex` and `ey` pixels from it along x
    /// and y, lie in every ring of `rings` (which holds the whole box inside where they are
    /// convex, as neatlines are).
    static func holdsBox(around p: PixelPoint, ex: Double, ey: Double, in rings: [[PixelPoint]]) -> Bool {
        [(-ex, -ey), (ex, -ey), (-ex, ey), (ex, ey)].allSatisfy { c in
            rings.allSatisfy { contains($0, PixelPoint(x: p.x + c.0, y: p.y + c.1)) }
        }
    }

    /// The distance from `p` to the nearest edge of the ring.
    static func distance(_ p: PixelPoint, toEdgesOf ring: [PixelPoint]) -> Double {
        var best = Double.infinity
        for i in ring.indices {
            let a = ring[i], b = ring[(i + 1) % ring.count]
            let dx = b.x - a.x, dy = b.y - a.y, length = dx * dx + dy * dy
            let s = length > 0 ? min(1, max(0, ((p.x - a.x) * dx + (p.y - a.y) * dy) / length)) : 0
            best = min(best, hypot(p.x - a.x - s * dx, p.y - a.y - s * dy))
        }
        return best
    }
}
