import TegulaGeometry
import TegulaTestSupport
import Testing

/// WebMercatorQuad as a tile matrix set gives Tegula's Web Mercator numbers: the same tile bounds
/// to the bit, the same tile under a point and the same tiles under a box away from tile edges
/// (the two compute those from different formulas: degrees through the Mercator series against
/// metres over a span, so a point within 1e-6 of a tile's width, or within mercantile's 1e-14 of the
/// world, from an edge may fall either side;
/// the old box rule counts an edge within 1e-9 of a tile as on it, the new one within 1e-11 CRS units).
struct WebMercatorQuadTests {
    let tms = TileMatrixSet.webMercatorQuad

    @Test func tileBoundsAreTodaysToTheBitAtEveryZoom() {
        var rng = SeededRandom()
        for z in 0...WebMercator.maxZoom {
            for _ in 0..<2_000 {
                let n = 1 << z
                let t = Tile(x: Int.random(in: 0..<n, using: &rng), y: Int.random(in: 0..<n, using: &rng), z: z)
                #expect(tms.bounds(of: t) == t.projectedBounds, "\(t); \(rng.replay)")
            }
            #expect(tms.limits(zoom: z).x == 0...((1 << z) - 1))
        }
        #expect(tms.extent == GridBounds.world)
        #expect(tms.zooms == 0...WebMercator.maxZoom)
    }

    @Test func tileOfAPointIsTodaysAwayFromEdges() {
        var rng = SeededRandom()
        var compared = 0
        for _ in 0..<50_000 {
            let c = Coordinate(longitude: Double.random(in: -180..<180, using: &rng), latitude: Double.random(in: -85...85, using: &rng))
            let z = Int.random(in: 0...WebMercator.maxZoom, using: &rng)
            let p = WebMercator.project(c)
            let span = WebMercator.tileExtent(zoom: z)
            let fx = (p.x + WebMercator.halfCircumference) / span, fy = (WebMercator.halfCircumference - p.y) / span
            // TileGrid adds mercantile's 1e-14 of the world before it floors: 1e-14 × 2^z tiles.
            let near = 1e-6 + 1e-14 * Double(1 << z) + fx.ulp * 64
            guard abs(fx - fx.rounded()) > near, abs(fy - fy.rounded()) > near else { continue }
            compared += 1
            #expect(tms.tile(containing: p, zoom: z) == TileGrid.tile(containing: c, zoom: z), "\(c) at \(z); \(rng.replay)")
        }
        #expect(compared > 49_000)
    }

    @Test func tilesUnderABoxAreTodaysAwayFromEdges() {
        var rng = SeededRandom()
        var compared = 0
        for _ in 0..<5_000 {
            let z = Int.random(in: 0...WebMercator.maxZoom, using: &rng)
            let span = WebMercator.tileExtent(zoom: z), h = WebMercator.halfCircumference
            let x = Double.random(in: -h..<h, using: &rng), y = Double.random(in: -h..<h, using: &rng)
            let box = ProjectedBounds(
                left: x, bottom: y, right: x + span * Double.random(in: 0.01...4, using: &rng),
                top: y + span * Double.random(in: 0.01...4, using: &rng))
            // Edges beyond the world are clamped to it by both.
            let edges = [(box.left + h) / span, (box.right + h) / span, (h - box.top) / span, (h - box.bottom) / span]
                .filter { $0 < Double(1 << z) }
            guard edges.allSatisfy({ abs($0 - $0.rounded()) > 1e-6 }) else { continue }
            compared += 1
            guard let old = TileGrid.tileRange(covering: box, zoom: z) else { Issue.record("no range for \(box)"); continue }
            let new = tms.tileRange(covering: box, zoom: z)
            #expect(new.x == old.x && new.y == old.y, "\(box) at \(z); \(rng.replay)")
        }
        #expect(compared > 4_900)
    }
}
