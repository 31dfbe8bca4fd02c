import Foundation

/// How a closed ring's edges are split where a map bends them, as Allmaps refines a polygon it
/// transforms (@allmaps/transform's `refineRing`): each edge's midpoint is mapped and compared
/// with the midpoint of its mapped ends; when they lie further apart than ``minOffsetRatio`` of
/// the mapped edge's length, the edge is split there and each half is tried again, at most
/// ``maxDepth`` times. A straight map adds no point; a curved one adds points where it curves.
public struct EdgeRefinement: Sendable, Hashable {
    /// How many times an edge may be halved (0: the ring's own vertices alone).
    public var maxDepth: Int
    /// The mapped midpoint's distance from the mapped chord's midpoint, over the chord's length,
    /// above which an edge is split.
    public var minOffsetRatio: Double
    /// The widest a mapped edge may be along x before it is halved whatever its bend (still at
    /// most ``maxDepth`` times; nil: no limit). A footprint in longitude and latitude sets 90°, so
    /// that an edge of a sheet spanning the world, whose midpoint happens to fall near its chord's,
    /// is not one step of more than 180°, which a reader that unwraps longitudes (the `/maps`
    /// lookup, GeoJSON viewers) would take across the antimeridian.
    public var maxStepX: Double?

    /// A refinement from its settings.
    public init(maxDepth: Int, minOffsetRatio: Double, maxStepX: Double? = nil) {
        self.maxDepth = maxDepth
        self.minOffsetRatio = minOffsetRatio
        self.maxStepX = maxStepX
    }

    /// Allmaps' settings for the outline of a warped map (@allmaps/render's `WarpedMap`, whose
    /// projected mask is drawn with `maxDepth` 5 and `minOffsetRatio` 0.01).
    public static let allmaps = EdgeRefinement(maxDepth: 5, minOffsetRatio: 0.01)

    /// The ring `ring` (not closed) mapped by `map`, with the points its refinement adds, in
    /// order, not closed. Points `map` cannot map (NaN) are kept as NaN; an edge with such an end
    /// is not split.
    public func refine(_ ring: [(x: Double, y: Double)], through map: ((x: Double, y: Double)) -> (x: Double, y: Double))
        -> [(x: Double, y: Double)]
    {
        let mapped = ring.map(map)
        var out: [(x: Double, y: Double)] = []
        for i in ring.indices {
            let j = (i + 1) % ring.count
            out.append(mapped[i])
            split((ring[i], mapped[i]), (ring[j], mapped[j]), depth: 0, map: map, into: &out)
        }
        return out
    }

    /// The points strictly between `a` and `b` (each a source point and its image), appended.
    func split(
        _ a: ((x: Double, y: Double), (x: Double, y: Double)), _ b: ((x: Double, y: Double), (x: Double, y: Double)),
        depth: Int, map: ((x: Double, y: Double)) -> (x: Double, y: Double), into out: inout [(x: Double, y: Double)]
    ) {
        guard depth < maxDepth else { return }
        let source = ((a.0.x + b.0.x) / 2, (a.0.y + b.0.y) / 2)
        let image = map(source)
        let chord = hypot(b.1.x - a.1.x, b.1.y - a.1.y)
        let offset = hypot(image.x - (a.1.x + b.1.x) / 2, image.y - (a.1.y + b.1.y) / 2)
        let tooWide = maxStepX.map { abs(b.1.x - a.1.x) > $0 } ?? false
        guard chord > 0, offset / chord > minOffsetRatio || tooWide else { return }
        split(a, (source, image), depth: depth + 1, map: map, into: &out)
        out.append(image)
        split((source, image), b, depth: depth + 1, map: map, into: &out)
    }
}
