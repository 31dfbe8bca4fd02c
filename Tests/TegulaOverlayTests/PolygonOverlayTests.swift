import Foundation
import TegulaGeometry
import Testing

@testable import TegulaOverlay

/// The footprint polygon as overlay and annotation: bounds, hit testing, the pin visibility rule.
struct PolygonOverlayTests {
    /// An L-shaped footprint in map points' terms: the notch (north-east quarter) is outside.
    static let ell = PolygonOverlay(
        coordinates: [
            Coordinate(longitude: 0, latitude: 0), Coordinate(longitude: 0, latitude: 20),
            Coordinate(longitude: 10, latitude: 20), Coordinate(longitude: 10, latitude: 10),
            Coordinate(longitude: 20, latitude: 10), Coordinate(longitude: 20, latitude: 0),
            Coordinate(longitude: 0, latitude: 0),
        ], title: "Schagen 1689")

    @Test func closingVertexDroppedAndBoundsFromMapPoints() {
        #expect(Self.ell.coordinates.count == 6)
        let r = Self.ell.boundingMapRect
        let nw = MapPoint(Coordinate(longitude: 0, latitude: 20))
        let se = MapPoint(Coordinate(longitude: 20, latitude: 0))
        #expect(r == MapRect(x: nw.x, y: nw.y, width: se.x - nw.x, height: se.y - nw.y))
        #expect(r.minX == MapPoint.worldSize / 2 && r.maxY == MapPoint.worldSize / 2)
        #expect(Self.ell.title == "Schagen 1689")
        #expect(abs(Self.ell.coordinate.longitude - 10) < 1e-9)
    }

    @Test func hitTestingFollowsTheRingNotTheBox() {
        #expect(Self.ell.contains(Coordinate(longitude: 5, latitude: 15)))
        #expect(Self.ell.contains(Coordinate(longitude: 15, latitude: 5)))
        // Inside the bounding box but in the notch.
        #expect(!Self.ell.contains(Coordinate(longitude: 15, latitude: 15)))
        #expect(!Self.ell.contains(Coordinate(longitude: -1, latitude: 5)))
        #expect(!Self.ell.contains(Coordinate(longitude: 5, latitude: 21)))
    }

    @Test func areaIsThreeQuartersOfTheBoxInMapPoints() {
        // In map points the L's notch is not exactly a quarter (Mercator stretches latitude), so
        // compare with the box minus the notch computed the same way.
        let box = Self.ell.boundingMapRect
        let notchTop = MapPoint(Coordinate(longitude: 10, latitude: 20))
        let notchBottom = MapPoint(Coordinate(longitude: 20, latitude: 10))
        let notch = (notchBottom.x - notchTop.x) * (notchBottom.y - notchTop.y)
        let expected = box.size.width * box.size.height - notch
        #expect(abs(Self.ell.area - expected) / expected < 1e-12)
    }

    @Test func pinShowsOnlyWhenThePolygonIsSmallOnScreen() {
        let box = Self.ell.boundingMapRect
        // Viewport 4× the box each way: area ratio about 0.75/16 ≈ 4.7% → too big for a pin.
        let near = MapRect(
            x: box.midX - 2 * box.size.width, y: box.midY - 2 * box.size.height,
            width: 4 * box.size.width, height: 4 * box.size.height)
        #expect(!Self.ell.showsPin(in: near))
        // 20× each way: ~0.19% → pin.
        let far = MapRect(
            x: box.midX - 10 * box.size.width, y: box.midY - 10 * box.size.height,
            width: 20 * box.size.width, height: 20 * box.size.height)
        #expect(Self.ell.showsPin(in: far))
        #expect(Self.ell.showsPin(in: near, maximumAreaRatio: 0.05))
        // Far away: not on screen, no pin.
        // (A viewport of the same small ratio beside the polygon, not around it.)
        let aside = MapRect(
            x: box.maxX + box.size.width, y: box.minY,
            width: 5 * box.size.width, height: 5 * box.size.height)
        #expect(!aside.contains(MapPoint(Self.ell.coordinate)))
        #expect(!Self.ell.showsPin(in: aside))
    }

    @Test func footprintFromBounds() {
        let p = PolygonOverlay(bounds: GeoBounds(west: -30, south: 20, east: 30, north: 60))
        #expect(p.contains(Coordinate(longitude: 0, latitude: 40)))
        #expect(!p.contains(Coordinate(longitude: 31, latitude: 40)))
        #expect(p.boundingMapRect == MapRect(GeoBounds(west: -30, south: 20, east: 30, north: 60)))
        #expect(p.intersects(.world))
    }
}
