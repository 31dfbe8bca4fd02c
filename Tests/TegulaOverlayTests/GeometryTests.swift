import Foundation
import TegulaGeometry
import Testing

@testable import TegulaOverlay

/// Which paths cover a visible map rect, and zoom scale ↔ level (map points: world = 2^28).
struct GeometryTests {
    /// Tile z10/x12/y8 starts at map point (12·2^18, 8·2^18) = (3145728, 2097152) and is 2^28 / 2^10 =
    /// 262144 points wide (MapKit's world is 2^28 points square).
    static let tileRect = MapRect(x: 3145728, y: 2097152, width: 262144, height: 262144)
    static let z10 = ZoomScale.scale(forZoomLevel: 10)

    @Test func zoomScaleAndLevel() throws {
        let overlay = TileOverlay(urlTemplate: nil)
        #expect(overlay.zoomScale(forZoomLevel: 20) == 1)
        #expect(overlay.zoomScale(forZoomLevel: 10) == pow(2, -10))
        for z in 0...21 { #expect(overlay.zoomLevel(forZoomScale: overlay.zoomScale(forZoomLevel: z)) == z) }
        // Between levels: nearest, halves up (in log2).
        #expect(overlay.zoomLevel(forZoomScale: pow(2, -10.4)) == 10)
        #expect(overlay.zoomLevel(forZoomScale: pow(2, -9.5)) == 11)
        overlay.tileSize = TileSize(width: 512, height: 512)
        #expect(overlay.zoomLevel(forZoomScale: Self.z10) == 9)
    }

    @Test func exactTileGivesOnePath() throws {
        let overlay = TileOverlay(urlTemplate: nil)
        #expect(MapRect(tile: Tile(x: 12, y: 8, z: 10)) == Self.tileRect)
        #expect(
            overlay.tilePaths(in: Self.tileRect, zoomScale: Self.z10)
                == [TileOverlayPath(x: 12, y: 8, z: 10)])
    }

    @Test func offsetRectStraddlesFourTilesRowByRow() throws {
        let overlay = TileOverlay(urlTemplate: nil)
        let r = MapRect(x: Self.tileRect.minX + 1000, y: Self.tileRect.minY + 1000, width: 262144, height: 262144)
        let paths = overlay.tilePaths(in: r, zoomScale: Self.z10, contentScaleFactor: 2)
        #expect(paths.map { [$0.x, $0.y] } == [[12, 8], [13, 8], [12, 9], [13, 9]])
        #expect(paths.allSatisfy { $0.contentScaleFactor == 2 && $0.z == 10 })
    }

    @Test func flippedOverlayReturnsTMSRows() throws {
        let overlay = TileOverlay(urlTemplate: nil)
        overlay.isGeometryFlipped = true
        #expect(overlay.tilePaths(in: Self.tileRect, zoomScale: Self.z10) == [TileOverlayPath(x: 12, y: 1023 - 8, z: 10)])
    }

    @Test func zoomRangeAndBoundsLimitRequests() throws {
        let overlay = TileOverlay(urlTemplate: nil)
        overlay.maximumZ = 9
        #expect(overlay.tilePaths(in: Self.tileRect, zoomScale: Self.z10).isEmpty)
        overlay.maximumZ = 21
        overlay.minimumZ = 11
        #expect(overlay.tilePaths(in: Self.tileRect, zoomScale: Self.z10).isEmpty)
        overlay.minimumZ = 0
        // Bounds covering only the west half of the tile: still that one tile; bounds elsewhere: none.
        overlay.boundingMapRect = MapRect(x: Self.tileRect.minX, y: Self.tileRect.minY, width: 1000, height: 1000)
        let wide = MapRect(x: Self.tileRect.minX - 262144, y: Self.tileRect.minY - 262144, width: 786432, height: 786432)
        #expect(overlay.tilePaths(in: wide, zoomScale: Self.z10) == [TileOverlayPath(x: 12, y: 8, z: 10)])
        overlay.boundingMapRect = MapRect(x: 0, y: 0, width: 1000, height: 1000)
        #expect(overlay.tilePaths(in: Self.tileRect, zoomScale: Self.z10).isEmpty)
    }

    @Test func wholeWorldAtZoomOne() throws {
        let overlay = TileOverlay(urlTemplate: nil)
        let paths = overlay.tilePaths(in: .world, zoomScale: overlay.zoomScale(forZoomLevel: 1))
        #expect(paths.count == 4)
        // A rect beyond the world is clamped to it.
        let beyond = MapRect(x: -1e9, y: -1e9, width: 3e9, height: 3e9)
        #expect(overlay.tilePaths(in: beyond, zoomScale: overlay.zoomScale(forZoomLevel: 1)) == paths)
    }

    @Test func viewportTileCount() throws {
        let overlay = TileOverlay(urlTemplate: nil)
        // 1024×768 points: 4×3 tiles when aligned, 5×4 when not.
        #expect(overlay.tileCountCovering(viewportWidth: 1024, viewportHeight: 768) == 20)
        #expect(TileRequestStack(visibleTileCount: 20).capacity == 40)
    }
}
