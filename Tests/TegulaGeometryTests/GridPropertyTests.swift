import TegulaGeometry
import Testing

/// Exhaustive checks at low zooms and round-trip properties on seeded random inputs.
struct GridPropertyTests {
    @Test func exhaustiveLowZooms() {
        for z in 0...7 {
            let n = 1 << z
            for x in 0..<n {
                for y in 0..<n {
                    let t = Tile(x: x, y: y, z: z)
                    let b = t.bounds
                    // The tile's own bounds cover exactly the tile.
                    #expect(TileGrid.tiles(covering: b, zoom: z) == [t])
                    // Its upper-left corner and centre lie in it.
                    #expect(TileGrid.tile(containing: t.upperLeft, zoom: z) == t)
                    let centre = Coordinate(longitude: (b.west + b.east) / 2, latitude: (b.south + b.north) / 2)
                    #expect(TileGrid.tile(containing: centre, zoom: z) == t)
                    #expect(Tile(quadkey: t.quadkey) == t)
                    #expect(t.quadkey.count == z)
                    #expect(Tile(x: x, tmsY: t.tmsY, z: z) == t)
                    #expect(t.tmsY == n - 1 - y)
                    for c in t.children { #expect(c.parent == t) }
                    #expect(Set(t.children).count == 4)
                    // Metres and degrees agree.
                    let pb = t.projectedBounds
                    let back = WebMercator.unproject(pb)
                    #expect(abs(back.west - b.west) < 1e-9 && abs(back.north - b.north) < 1e-9)
                    #expect(abs(pb.width - 2 * WebMercator.halfCircumference / Double(n)) < 1e-6)
                }
            }
        }
    }

    @Test func projectionRoundTrip() {
        var rng = SplitMix64(seed: 42)
        for _ in 0..<10_000 {
            let c = Coordinate(longitude: rng.uniform(-180, 180), latitude: rng.uniform(-85.05, 85.05))
            let back = WebMercator.unproject(WebMercator.project(c))
            #expect(abs(back.longitude - c.longitude) < 1e-9)
            #expect(abs(back.latitude - c.latitude) < 1e-9)
            let mp = MapPoint(c)
            #expect(abs(mp.coordinate.latitude - c.latitude) < 1e-9)
            #expect(mp.x >= 0 && mp.x <= MapPoint.worldSize)
        }
    }

    @Test func randomTilesRoundTrip() {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<5_000 {
            let z = Int(rng.next() % 31)
            let n = UInt64(1) << UInt64(z)
            let t = Tile(x: Int(rng.next() % n), y: Int(rng.next() % n), z: z)
            #expect(Tile(quadkey: t.quadkey) == t)
            if z <= 26 {
                // Above zoom 26 a tile is under 1e-6° tall and doubles cannot always separate it.
                #expect(TileGrid.tile(containing: t.upperLeft, zoom: z) == t)
            }
            if z > 0, let p = t.parent { #expect(p.children.contains(t)) }
            #expect(t.ancestor(atZoom: 0) == Tile(x: 0, y: 0, z: 0))
        }
    }

    @Test func antimeridianCover() {
        let box = GeoBounds(west: 170, south: -10, east: -170, north: 10)
        #expect(box.crossesAntimeridian)
        let tiles = TileGrid.tiles(covering: box, zoom: 3)
        // West side: column 0; east side: column 7; rows 3 and 4 (straddling the equator).
        #expect(
            Set(tiles)
                == Set([
                    Tile(x: 0, y: 3, z: 3), Tile(x: 0, y: 4, z: 3),
                    Tile(x: 7, y: 3, z: 3), Tile(x: 7, y: 4, z: 3),
                ]))
        #expect(abs(box.center.longitude - 180) < 1e-12 || abs(box.center.longitude + 180) < 1e-12)
    }

    @Test func tileRangeInMetres() {
        let t = Tile(x: 486, y: 332, z: 10)
        let r = TileGrid.tileRange(covering: t.projectedBounds, zoom: 10)
        #expect(r?.x == 486...486 && r?.y == 332...332)
        let r12 = TileGrid.tileRange(covering: t.projectedBounds, zoom: 12)
        #expect(r12?.x == 1944...1947 && r12?.y == 1328...1331)
        #expect(TileGrid.tileRange(covering: ProjectedBounds(left: 3e7, bottom: 0, right: 4e7, top: 1), zoom: 3) == nil)
    }

    @Test func mapRectGeometry() {
        let a = MapRect(x: 0, y: 0, width: 10, height: 10)
        let b = MapRect(x: 5, y: 5, width: 10, height: 10)
        #expect(a.intersects(b))
        #expect(a.intersection(b) == MapRect(x: 5, y: 5, width: 5, height: 5))
        #expect(a.union(b) == MapRect(x: 0, y: 0, width: 15, height: 15))
        #expect(!a.intersects(MapRect(x: 10, y: 0, width: 1, height: 1)))
        let world = MapRect(GeoBounds.world)
        #expect(abs(world.size.width - MapPoint.worldSize) < 1e-6)
        #expect(abs(world.minY) < 1e-6)
    }
}

/// A small seeded generator so property tests are reproducible.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func uniform(_ lo: Double, _ hi: Double) -> Double {
        lo + (hi - lo) * Double(next() >> 11) / Double(1 << 53)
    }
}
