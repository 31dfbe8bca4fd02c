/// Points along a closed ring's edges, so that a ring mapped through a curved transform follows
/// the curve: each edge split into `steps` equal parts, the ring's own vertices included, not
/// closed (the first point is not repeated).
public enum EdgeDensifier {
    /// The densified ring of `ring` (x, y pairs).
    public static func densify(_ ring: [(x: Double, y: Double)], steps: Int) -> [(x: Double, y: Double)] {
        var out: [(x: Double, y: Double)] = []
        out.reserveCapacity(ring.count * max(steps, 1))
        for i in ring.indices {
            let a = ring[i], b = ring[(i + 1) % ring.count]
            for s in 0..<max(steps, 1) {
                let t = Double(s) / Double(steps)
                out.append((a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t))
            }
        }
        return out
    }
}
