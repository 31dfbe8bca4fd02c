import Foundation
import TegulaGeometry
import Testing

@testable import TegulaOverlay

/// The two hooks subclasses override, as MapKit documents them: URLs (custom indexing) and data.
struct SubclassTests {
    @Test func quadkeyOverlay() throws {
        let overlay = try QuadkeyTileOverlay(urlTemplate: "https://ecn.t{s}.tiles.example/a{q}.jpeg?z={z}")
        let path = overlay.path(for: Tile(x: 486, y: 332, z: 10))
        // Bing picks the subdomain by the quadkey's last digit (0).
        #expect(overlay.url(forTilePath: path).absoluteString == "https://ecn.t0.tiles.example/a0313102310.jpeg?z=10")
        #expect(overlay.quadkey(for: TileOverlayPath(x: 1, y: 1, z: 1)) == "3")
        #expect(
            overlay.url(forTilePath: TileOverlayPath(x: 1, y: 1, z: 1)).absoluteString
                == "https://ecn.t3.tiles.example/a3.jpeg?z=1")
    }

    @Test func quadkeyOverlayHonoursFlippedRows() throws {
        let overlay = try QuadkeyTileOverlay(urlTemplate: "https://x/{quadkey}")
        overlay.isGeometryFlipped = true
        // TMS row 691 at z10 is XYZ row 332.
        #expect(overlay.url(forTilePath: TileOverlayPath(x: 486, y: 691, z: 10)).absoluteString == "https://x/0313102310")
    }

    @Test func quadkeyOverlayNeedsAQuadkey() {
        #expect(throws: TileOverlayError.missingPlaceholder(template: "https://x/{z}/{x}/{y}", needed: ["q", "quadkey"])) {
            _ = try QuadkeyTileOverlay(urlTemplate: "https://x/{z}/{x}/{y}")
        }
    }

    /// Custom indexing by overriding the URL hook only: loading still goes through it.
    final class ReversedOverlay: TileOverlay, @unchecked Sendable {
        let folder: URL
        init(folder: URL) {
            self.folder = folder
            super.init(template: nil)
        }
        override func url(forTilePath path: TileOverlayPath) -> URL {
            folder.appendingPathComponent("\(path.y)-\(path.x)-\(path.z).bin")
        }
    }

    @Test func urlHookDrivesDefaultLoading() async throws {
        let dir = try OverlayFixtures.ScratchFolder()
        try Data([7, 8, 9]).write(to: dir.url.appendingPathComponent("2-1-3.bin"))
        let overlay = ReversedOverlay(folder: dir.url)
        #expect(try await overlay.fetchTile(at: TileOverlayPath(x: 1, y: 2, z: 3)) == Data([7, 8, 9]))
    }

    /// Data hook: tiles generated in memory, no URL at all.
    final class GeneratedOverlay: TileOverlay, @unchecked Sendable {
        init() { super.init(template: nil) }
        override func loadTile(at path: TileOverlayPath) async throws -> Data {
            Data("\(path.z)/\(path.x)/\(path.y)".utf8)
        }
    }

    @Test func dataHookReplacesLoading() async throws {
        let overlay = GeneratedOverlay()
        let data = try await overlay.fetchTile(at: TileOverlayPath(x: 3, y: 5, z: 4))
        #expect(String(decoding: data, as: UTF8.self) == "4/3/5")
    }

    @Test func noTemplateAndNoOverrideIsAClearError() async throws {
        let overlay = TileOverlay(urlTemplate: nil)
        await #expect(throws: TileOverlayError.noTemplate(path: TileOverlayPath(x: 0, y: 0, z: 0))) {
            _ = try await overlay.fetchTile(at: TileOverlayPath(x: 0, y: 0, z: 0))
        }
    }
}
