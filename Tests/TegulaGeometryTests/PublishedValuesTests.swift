import TegulaGeometry
import Testing

/// Exact values published by mercantile 1.2.1's own tests (`tests/test_funcs.py`) and by MapKit's
/// map-point definition (the world is 2^28 points square).
struct PublishedValuesTests {
    @Test func canonicalTileUpperLeftAndQuadkey() {
        let t = Tile(x: 486, y: 332, z: 10)
        #expect(t.upperLeft.longitude == -9.140625)
        #expect(abs(t.upperLeft.latitude - 53.33087298301705) < 1e-12)
        #expect(t.quadkey == "0313102310")
        #expect(Tile(quadkey: "0313102310") == t)
    }

    @Test func tileForCoordinate() {
        #expect(
            TileGrid.tile(containing: Coordinate(longitude: 20.6852, latitude: 40.1222), zoom: 9)
                == Tile(x: 285, y: 193, z: 9))
        #expect(
            TileGrid.tile(containing: Coordinate(longitude: 180, latitude: -85), zoom: 1)
                == Tile(x: 1, y: 1, z: 1))
    }

    @Test func zoomZeroAndResolution() {
        #expect(WebMercator.resolution(zoom: 0) == 156543.03392804097)
        #expect(Tile(x: 0, y: 0, z: 0).quadkey == "")
        #expect(Tile(quadkey: "") == Tile(x: 0, y: 0, z: 0))
        let b = Tile(x: 0, y: 0, z: 0).bounds
        #expect(b.west == -180 && b.east == 180)
        #expect(abs(b.north - WebMercator.maxLatitude) < 1e-12)
        #expect(abs(Tile(x: 0, y: 0, z: 1).upperLeft.latitude - 85.0511287798066) < 1e-12)
        #expect(Tile(x: 1, y: 1, z: 1).upperLeft == Coordinate(longitude: 0, latitude: 0))
    }

    @Test func mapKitExampleTile() {
        let r = MapRect(tile: Tile(x: 12, y: 8, z: 10))
        #expect(r.origin == MapPoint(x: 3145728, y: 2097152))
        #expect(r.size.width == 262144)
        let c = r.origin.coordinate
        #expect(abs(c.latitude - 84.8024737243345) < 1e-9)
        #expect(abs(c.longitude - -175.78125) < 1e-12)
        #expect(ZoomScale.scale(forZoomLevel: 20) == 1)
        #expect(ZoomScale.scale(forZoomLevel: 10) == 1.0 / 1024)
        #expect(ZoomScale.zoomLevel(forScale: 1.0 / 1024) == 10)
        #expect(ZoomScale.zoomLevel(forScale: 1.0 / 512, tileSize: 512) == 10)
    }

    @Test func projectionConstants() {
        let p = WebMercator.project(Coordinate(longitude: 180, latitude: WebMercator.maxLatitude))
        #expect(p.x == WebMercator.halfCircumference)
        #expect(abs(p.y - WebMercator.halfCircumference) < 1e-6)
        // Beyond the limit, latitude is clamped rather than running to infinity.
        #expect(WebMercator.project(Coordinate(longitude: 0, latitude: 90)).y == p.y)
        #expect(abs(WebMercator.project(Coordinate(longitude: 0, latitude: -89)).y + p.y) < 1e-6)
    }

    @Test func edgesOfTheWorld() {
        // Longitude exactly ±180 and beyond clamp to the edge columns, at every zoom up to 30.
        for z in [0, 1, 5, 18, 30] {
            let last = (1 << z) - 1
            #expect(TileGrid.tile(containing: Coordinate(longitude: 180, latitude: 0), zoom: z).x == last)
            #expect(TileGrid.tile(containing: Coordinate(longitude: 200, latitude: 0), zoom: z).x == last)
            #expect(TileGrid.tile(containing: Coordinate(longitude: -180, latitude: 0), zoom: z).x == 0)
            #expect(TileGrid.tile(containing: Coordinate(longitude: 0, latitude: 90), zoom: z).y == 0)
            #expect(TileGrid.tile(containing: Coordinate(longitude: 0, latitude: -90), zoom: z).y == last)
            #expect(TileGrid.tile(containing: Coordinate(longitude: 0, latitude: 86), zoom: z).y == 0)
        }
        let deepest = Tile(x: (1 << 30) - 1, y: 0, z: 30)
        #expect(deepest.isValid)
        #expect(Tile(quadkey: deepest.quadkey) == deepest)
        #expect(!Tile(x: 0, y: 0, z: 31).isValid)
        #expect(Tile(quadkey: String(repeating: "1", count: 31)) == nil)
        #expect(Tile(quadkey: "0124") == nil)
    }
}
