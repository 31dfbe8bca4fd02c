import Foundation
import Logging
import TegulaGeometry
import TegulaTileset
import Testing

@testable import TegulaHTTP
@testable import TegulaServer

/// A pipeline's sheet index beside a served composite (`OUT.index.geojson` beside `OUT.pmtiles`):
/// served at `/{id}.index.geojson` as the file's bytes, named in the TileJSON (`sheet_index`) and
/// in the viewer's catalogue (`sheets`), which draws it.
struct SheetIndexRouteTests {
    /// An index with a feature, its bytes as a pipeline would write them (key-sorted, a final line end).
    static let index =
        #"{"features":[{"geometry":{"coordinates":[[[0,0],[1,0],[1,1],[0,0]]],"type":"Polygon"},"id":"a","properties":{"name":"a","quality":"ok"},"type":"Feature"}],"ties":[],"type":"FeatureCollection"}"#
        + "\n"

    /// A folder holding a one-tile PMTiles composite `all sheets.pmtiles` (an id that needs
    /// percent-encoding), with its index beside it when asked, served as a folder.
    static func service(withIndex: Bool) throws -> (TileService, String) {
        let dir = NSTemporaryDirectory() + "tegula-sheets-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let w = try Tileset.openWriter(at: dir + "/all sheets.pmtiles")
        try w.write(Tile(x: 0, y: 0, z: 0), data: ServerFixtures.bytes("all", Tile(x: 0, y: 0, z: 0)))
        try w.finish(metadata: TilesetMetadata(name: "All", zooms: ZoomRange(min: 0, max: 0)!))
        if withIndex { try Data(index.utf8).write(to: URL(fileURLWithPath: dir + "/all sheets.index.geojson")) }
        let s = TileService(
            catalogue: try Catalogue.load(paths: [dir]), configuration: ServerFixtures.configuration,
            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        return (s, dir)
    }

    @Test func theSheetIndexBesideATilesetIsServedAsGeoJSONAndNamedInTheTileJSONAndTheViewer() throws {
        let (s, dir) = try Self.service(withIndex: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(s.catalogue.entries.map(\.id) == ["all sheets"])
        let r = s.get("/all%20sheets.index.geojson")
        #expect(r.status == 200)
        #expect(r.body == Array(Self.index.utf8))
        #expect(r.header("Content-Type") == "application/geo+json")
        let tag = try #require(r.header("ETag"))
        #expect(s.get("/all%20sheets.index.geojson", ["If-None-Match": tag]).status == 304)
        let head = s.get("/all%20sheets.index.geojson", method: "HEAD")
        #expect(head.status == 200 && head.body.isEmpty && head.header("Content-Length") == String(Self.index.utf8.count))
        let tileJSON = try JSONValue.parse(s.get("/all%20sheets.json", ["Host": "127.0.0.1:8080"]).body)
        #expect(tileJSON["sheet_index"] == .string("http://127.0.0.1:8080/all%20sheets.index.geojson"))
        let page = String(decoding: s.get("/").body, as: UTF8.self)
        #expect(page.contains(#""sheets":"/all%20sheets.index.geojson""#))
        #expect(s.get("/other.index.geojson").status == 404)
        #expect(s.get("/.index.geojson").status == 404)
        #expect(s.get("/all%20sheets.index.geojson", method: "POST").status == 405)
    }

    @Test func aTilesetWithoutASheetIndexHasNoneServedOrNamed() throws {
        let (s, dir) = try Self.service(withIndex: false)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = s.get("/all%20sheets.index.geojson")
        #expect(r.status == 404)
        #expect(String(decoding: r.body, as: UTF8.self).contains("has no sheet index"))
        #expect(!String(decoding: s.get("/").body, as: UTF8.self).contains("index.geojson"))
        let tileJSON = try JSONValue.parse(s.get("/all%20sheets.json").body)
        #expect(tileJSON["sheet_index"] == nil && tileJSON["tilejson"] == .string("3.0.0"))
    }

    @Test func aSheetIndexThatCannotBeReadRefusesTheStartWithOneLine() throws {
        let dir = NSTemporaryDirectory() + "tegula-sheets-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/all.index.geojson", withIntermediateDirectories: true)
        let w = try Tileset.openWriter(at: dir + "/all.pmtiles")
        try w.write(Tile(x: 0, y: 0, z: 0), data: ServerFixtures.bytes("all", Tile(x: 0, y: 0, z: 0)))
        try w.finish(metadata: TilesetMetadata(name: "All", zooms: ZoomRange(min: 0, max: 0)!))
        let e = #expect(throws: TileServerError.self) { _ = try Catalogue.load(paths: [dir + "/all.pmtiles"]) }
        #expect(e?.description.contains("all.index.geojson cannot be read") == true, "\(e?.description ?? "")")
        #expect(e?.description.contains("\n") == false)
    }
}
