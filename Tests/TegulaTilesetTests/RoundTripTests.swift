import Foundation
import TegulaGeometry
import TegulaTestSupport
import Testing

@testable import TegulaTileset

/// Every bundle form stores exactly what was written, from several threads at once.
struct RoundTripTests {
    static let forms = ["out", "out.mbtiles", "out.pmtiles"]

    /// Writes z0–4 concurrently (plus one duplicated tile content), reads every tile back.
    @Test(arguments: forms) func roundTrip(name: String) throws {
        let path = try TemporaryFolder.make("bundle").path + "/" + name
        let tiles = BundleFixtures.pyramid(0...4)
        let writer = try Tileset.openWriter(at: path)
        DispatchQueue.concurrentPerform(iterations: tiles.count) { i in
            try! writer.write(tiles[i], data: BundleFixtures.png(for: tiles[i]))
        }
        try writer.finish(metadata: BundleFixtures.metadata(maxZoom: 4))
        #expect(Tileset.isTileset(at: path))
        let reader = try Tileset.openReader(at: path)
        for t in tiles { #expect(try reader.tile(t) == BundleFixtures.png(for: t), "\(t)") }
        #expect(try reader.tile(Tile(x: 0, y: 0, z: 5)) == nil)
        #expect(try reader.tile(Tile(x: 16, y: 0, z: 4)) == nil)  // off the grid, never aliased
        #expect(try reader.tile(Tile(x: -1, y: 0, z: 4)) == nil)
        let m = reader.metadata
        #expect(m.name == "Schagen 1689" && m.format == .png && m.zooms.min == 0 && m.zooms.max == 4)
        #expect(m.bounds == GeoBounds(west: -30, south: 20, east: 30, north: 60.5))
        #expect(m.attribution == "G. van Schagen")
        #expect(m.footprint?.count == 5)
        #expect(m.extra[TilesetMetadata.gcpsKey]?.arrayValue?.first?["residual_m"]?.doubleValue == 1.5)
        #expect(Tileset.existingTiles(at: path) == Set(tiles))
    }

    @Test func folderXYZLayoutAndTileJSON() throws {
        let path = try TemporaryFolder.make("bundle").path + "/xyz"
        let w = try Tileset.openWriter(at: path)
        let t = Tile(x: 486, y: 332, z: 10)
        try w.write(t, data: BundleFixtures.png(for: t))
        #expect(Tileset.isTileset(at: path))  // marked before finish, so an interrupted run resumes
        try w.finish(metadata: BundleFixtures.metadata(minZoom: 10, maxZoom: 10))
        #expect(FileManager.default.fileExists(atPath: path + "/10/486/332.png"))
        let json = try JSONValue.parse(try #require(try FileIO.readFile(path + "/tiles.json")))
        #expect(json["tilejson"] == .string("3.0.0"))
        #expect(json["tiles"] == .array([.string("{z}/{x}/{y}.png")]))
        #expect(json["scheme"] == .string("xyz"))
        #expect(json["minzoom"] == .int(10))
        #expect(!FileManager.default.fileExists(atPath: path + "/tilemapresource.xml"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: path + "/10/486")
        #expect(leftovers == ["332.png"])  // no temp files left behind
    }

    @Test func folderTMSLayoutFlipsRows() throws {
        let path = try TemporaryFolder.make("bundle").path + "/tms"
        let w = try Tileset.openWriter(at: path, layout: .bottomLeft)
        let t = Tile(x: 486, y: 332, z: 10)
        try w.write(t, data: BundleFixtures.png(for: t))
        try w.finish(metadata: BundleFixtures.metadata(minZoom: 10, maxZoom: 10))
        #expect(FileManager.default.fileExists(atPath: path + "/10/486/691.png"))  // 1023 − 332
        let xml = String(decoding: try #require(try FileIO.readFile(path + "/tilemapresource.xml")), as: UTF8.self)
        #expect(xml.contains("<TileSet href=\"10\" units-per-pixel=\"152.87405657035"))
        #expect(xml.contains("profile=\"mercator\""))
        let r = try Tileset.openReader(at: path)
        #expect(try r.tile(t) == BundleFixtures.png(for: t))
        #expect(Tileset.existingTiles(at: path) == [t])
    }

    @Test func scale2NamesTilesAt2x() throws {
        let path = try TemporaryFolder.make("bundle").path + "/retina"
        let w = try Tileset.openWriter(at: path, scale: 2)
        try w.write(Tile(x: 1, y: 0, z: 1), data: BundleFixtures.png(r: 1, g: 2, b: 3, size: 8))
        try w.finish(metadata: BundleFixtures.metadata(minZoom: 1, maxZoom: 1, scale: 2))
        #expect(FileManager.default.fileExists(atPath: path + "/1/1/0@2x.png"))
        let r = try Tileset.openReader(at: path)
        #expect(r.metadata.scale == 2 && r.metadata.tileSize == 512)
        #expect(try r.tile(Tile(x: 1, y: 0, z: 1)) != nil)
    }

    @Test func folderSymlinkOutsideIsNeverRead() throws {
        let dir = try TemporaryFolder.make("bundle").path
        let path = dir + "/sym"
        let w = try Tileset.openWriter(at: path)
        try w.write(Tile(x: 0, y: 0, z: 1), data: BundleFixtures.png(r: 0, g: 0, b: 0))
        try w.finish(metadata: BundleFixtures.metadata(maxZoom: 1))
        try Data("secret".utf8).write(to: URL(fileURLWithPath: dir + "/secret.png"))
        try FileManager.default.createSymbolicLink(atPath: path + "/1/0/1.png", withDestinationPath: dir + "/secret.png")
        try FileManager.default.createSymbolicLink(atPath: path + "/1/1", withDestinationPath: dir)
        let r = try Tileset.openReader(at: path)
        #expect(try r.tile(Tile(x: 0, y: 1, z: 1)) == nil)
        #expect(try r.tile(Tile(x: 1, y: 0, z: 1)) == nil)  // 1/1 → dir, "0.png" absent anyway
        try FileManager.default.createSymbolicLink(atPath: dir + "/0.png", withDestinationPath: dir + "/secret.png")
        #expect(try r.tile(Tile(x: 1, y: 0, z: 1)) == nil)  // now present outside, still refused
        #expect(try r.tile(Tile(x: 0, y: 0, z: 1)) != nil)
    }

    @Test func writerRefusesOffGridTiles() throws {
        for name in Self.forms {
            let w = try Tileset.openWriter(at: try TemporaryFolder.make("bundle").path + "/" + name)
            #expect(throws: TilesetError.self) { try w.write(Tile(x: 2, y: 0, z: 1), data: [1]) }
            #expect(throws: TilesetError.self) { try w.write(Tile(x: 0, y: -1, z: 1), data: [1]) }
        }
    }
}
