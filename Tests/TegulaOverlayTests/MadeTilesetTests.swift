import Foundation
import TegulaCodec
import TegulaGeometry
import TegulaServer
import TegulaTestSupport
import TegulaTileset
import TegulaTilesetOverlay
import Testing

@testable import TegulaOverlay

/// Loading through `TileOverlay` from tilesets the pyramid stage really made: an MBTiles and a
/// PMTiles read in place (`TilesetOverlay`), and the same tiles from `tegula serve`'s server
/// on loopback; overzoom pixels cut from a real max-zoom tile.
struct MadeTilesetTests {
    let m = OverlayFixtures.shared

    @Test(arguments: ["mbtiles", "pmtiles"]) func bundleOverlayGivesTheFolderBytes(kind: String) async throws {
        let path = kind == "mbtiles" ? m.mbtiles : m.pmtiles
        let overlay = try TilesetOverlay(tileset: URL(fileURLWithPath: path))
        #expect(overlay.minimumZ == 4 && overlay.maximumZ == 6 && overlay.maximumNativeZ == nil)
        #expect(overlay.tileSize == TileSize(width: 256, height: 256))
        // Bounds from the metadata: lon 5…23, lat 41…53 (to the precision metadata stores).
        let c = overlay.coordinate
        #expect(abs(c.longitude - 14) < 0.01 && abs(c.latitude - 47.2) < 0.3, "\(c)")
        #expect(m.tiles.count > 20)
        for (tile, bytes) in m.tiles {
            #expect(try await overlay.fetchTile(at: overlay.path(for: tile)) == bytes, "\(tile)")
        }
        do {
            _ = try await overlay.fetchTile(at: overlay.path(for: m.absentTile))
            Issue.record("an absent entry must throw")
        } catch let e as TileOverlayError {
            #expect(e.isMissingTile, "\(e)")
        }
        // Below the tileset's zooms nothing is loaded.
        await #expect(throws: TileOverlayError.pathOutOfRange(path: TileOverlayPath(x: 0, y: 0, z: 3), minimumZ: 4, maximumZ: 6)) {
            _ = try await overlay.fetchTile(at: TileOverlayPath(x: 0, y: 0, z: 3))
        }
    }

    @Test func flippedBundleOverlayReadsTheSameTiles() async throws {
        let overlay = try TilesetOverlay(tileset: URL(fileURLWithPath: m.mbtiles))
        overlay.isGeometryFlipped = true
        let (tile, bytes) = m.tiles.first { $0.key.z == 5 }!
        let path = overlay.path(for: tile)
        #expect(path.y == (1 << 5) - 1 - tile.y)
        #expect(try await overlay.fetchTile(at: path) == bytes)
    }

    @Test func notATilesetIsRefusedAsAnOverlayError() {
        #expect(throws: TileOverlayError.self) { try TilesetOverlay(tileset: m.dir.appendingPathComponent("src.tif")) }
        #expect(throws: TileOverlayError.self) { try TilesetOverlay(tileset: URL(string: "http://example.org/a.mbtiles")!) }
    }

    @Test func loadsFromTheTileServerOnLoopback() async throws {
        let catalogue = try Catalogue.load(paths: [m.folder, m.mbtiles, m.pmtiles])
        try await LiveServer.run(TileService(catalogue: catalogue)) { server in
            let port = server.port
            for id in ["scan", "scan-mb", "scan-pm"] {
                let overlay = TileOverlay(urlTemplate: "http://127.0.0.1:\(port)/\(id)/{z}/{x}/{y}.png")
                try overlay.validate()
                for (tile, bytes) in m.tiles where tile.z == 5 {
                    #expect(try await overlay.fetchTile(at: overlay.path(for: tile)) == bytes, "\(id) \(tile)")
                }
                do {
                    _ = try await overlay.fetchTile(at: overlay.path(for: m.absentTile))
                    Issue.record("\(id): a 404 must throw")
                } catch let e as TileOverlayError {
                    #expect(e.isMissingTile, "\(id): 404 is missing, not a failure: \(e)")
                }
                // The TMS route through a flipped overlay gives the same tile.
                let tms = TileOverlay(urlTemplate: "http://127.0.0.1:\(port)/\(id)/tms/{z}/{x}/{y}.png")
                try tms.validate()
                tms.isGeometryFlipped = true
                let (tile, bytes) = m.tiles.first { $0.key.z == 6 }!
                #expect(try await tms.fetchTile(at: tms.path(for: tile)) == bytes, "\(id) tms \(tile)")
            }
        }
    }

    @Test func overzoomPixelsAreBlocksOfTheAncestorsPixels() async throws {
        let overlay = try TilesetOverlay(tileset: URL(fileURLWithPath: m.pmtiles), overzoomTo: 8)
        #expect(overlay.maximumZ == 8 && overlay.maximumNativeZ == 6)
        let ancestor = m.opaqueMaxZoomTile
        let parent = try PNGDecoder.decode([UInt8](m.tiles[ancestor]!)).rgba
        let loadsBefore = overlay.loadsStarted
        // All 16 z8 tiles inside the ancestor: each is its 64×64 quarter-of-a-quarter enlarged 4×.
        for dy in 0..<4 {
            for dx in 0..<4 {
                let t = Tile(x: ancestor.x * 4 + dx, y: ancestor.y * 4 + dy, z: 8)
                let img = try PNGDecoder.decode([UInt8](try await overlay.fetchTile(at: overlay.path(for: t)))).rgba
                #expect(img.width == 256 && img.height == 256)
                var mismatches = 0
                for y in 0..<256 {
                    for x in 0..<256 {
                        let sx = dx * 64 + x / 4, sy = dy * 64 + y / 4
                        for c in 0..<4 where img.pixels[(y * 256 + x) * 4 + c] != parent.pixels[(sy * 256 + sx) * 4 + c] {
                            mismatches += 1
                        }
                    }
                }
                #expect(mismatches == 0, "\(t): \(mismatches) samples differ from the ancestor's blocks")
            }
        }
        // The ancestor was loaded once from the bundle and shared by all 16 crops.
        #expect(overlay.loadsStarted - loadsBefore == 1)
        // Past an absent ancestor the overzoomed tile is missing too, not a failure.
        let absent = m.absentTile
        do {
            _ = try await overlay.fetchTile(at: overlay.path(for: Tile(x: absent.x * 4, y: absent.y * 4, z: 8)))
            Issue.record("overzoom past an absent ancestor must throw")
        } catch let e as TileOverlayError {
            #expect(e.isMissingTile, "\(e)")
        }
    }

    @Test func overzoomThroughAFolderTemplate() async throws {
        let overlay = TileOverlay(urlTemplate: m.folder + "/{z}/{x}/{y}.png")
        try overlay.validate()
        overlay.maximumNativeZ = 6
        overlay.overzoomRenderer = PNGOverzoomRenderer()
        let ancestor = m.opaqueMaxZoomTile
        let child = Tile(x: ancestor.x * 2 + 1, y: ancestor.y * 2, z: 7)
        let img = try PNGDecoder.decode([UInt8](try await overlay.fetchTile(at: overlay.path(for: child)))).rgba
        let parent = try PNGDecoder.decode([UInt8](m.tiles[ancestor]!)).rgba
        // Top-right quarter, each source pixel a 2×2 block.
        for (x, y) in [(0, 0), (1, 1), (255, 0), (17, 200), (255, 255)] {
            let a = (y * 256 + x) * 4, b = ((y / 2) * 256 + 128 + x / 2) * 4
            #expect(Array(img.pixels[a..<a + 4]) == Array(parent.pixels[b..<b + 4]), "pixel \(x),\(y)")
        }
    }
}
