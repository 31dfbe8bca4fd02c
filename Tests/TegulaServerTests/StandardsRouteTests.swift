import Foundation
import Logging
import TegulaGeometry
import TegulaTileset
import Testing

@testable import TegulaHTTP
@testable import TegulaServer

/// WMTS 1.0.0 and OGC API – Tiles beside the XYZ paths, without sockets: every tile they address
/// is the XYZ path's answer (the oracle: the fixtures' own bytes, which TileRouteTests checks),
/// the limits are those of the tiles the fixtures wrote, and bad requests get the OWS exception
/// code and status WMTS 1.0.0 Table 28 gives. Real clients (GDAL, OWSLib) and the specification's
/// schemas are in WMTSClientCLITests and OGCAPITilesCLITests.
struct StandardsRouteTests {
    let s = ServerFixtures.shared.service()

    /// The tile file name of a fixture tileset (`y.png` or `y@2x.png`).
    static func file(_ id: String, _ y: Int) -> String { id == "retina" ? "\(y)@2x.png" : "\(y).png" }

    static func kvp(_ id: String, _ set: String, _ z: Int, row: Int, col: Int) -> String {
        "/wmts?SERVICE=WMTS&REQUEST=GetTile&VERSION=1.0.0&LAYER=\(id)&STYLE=default&FORMAT=image%2Fpng"
            + "&TILEMATRIXSET=\(set)&TILEMATRIX=\(z)&TILEROW=\(row)&TILECOL=\(col)"
    }

    @Test func everyTileByWMTSAndOGCAPITilesIsTheXYZPathsAnswerAndOnlyWithinTheLimits() throws {
        var inside = 0, outside = 0
        for (id, set, zooms) in [("blue", "WebMercatorQuad", 0...2), ("schagen", "WebMercatorQuad", 2...4), ("retina", "WebMercatorQuad@4x", 0...1)] {
            // The oracle for the limits: the columns and rows of the tiles the fixture wrote.
            let written = Self.writtenTiles(id)
            for z in zooms {
                let atZoom = written.filter { $0.z == z }
                for x in 0..<(1 << z) {
                    for y in 0..<(1 << z) {
                        let within =
                            (atZoom.map(\.x).min()!...atZoom.map(\.x).max()!).contains(x)
                            && (atZoom.map(\.y).min()!...atZoom.map(\.y).max()!).contains(y)
                        let xyz = s.get("/\(id)/\(z)/\(x)/\(Self.file(id, y))")
                        let answers = [
                            s.get(Self.kvp(id, set, z, row: y, col: x)),
                            s.get("/wmts/1.0.0/\(id)/default/\(set)/\(z)/\(y)/\(x).png"),
                            s.get("/ogcapi/collections/\(id)/map/tiles/\(set)/\(z)/\(y)/\(x)"),
                        ]
                        if within {
                            for a in answers {
                                #expect(a.status == xyz.status && a.body == xyz.body, "\(id) \(z)/\(x)/\(y): \(a.status) against \(xyz.status)")
                                #expect(a.header("Content-Type") == xyz.header("Content-Type") && a.header("ETag") == xyz.header("ETag"))
                            }
                            inside += 1
                        } else {
                            #expect(answers[0].status == 400 && answers[1].status == 400 && answers[2].status == 404, "\(id) \(z)/\(x)/\(y)")
                            #expect(String(decoding: answers[0].body, as: UTF8.self).contains(#"exceptionCode="TileOutOfRange""#))
                            outside += 1
                        }
                    }
                }
            }
        }
        // blue: 21 tiles (one a symlink the XYZ path refuses, the same refusal here); schagen:
        // its rectangle at zooms 2-4, the missing tile 404 by all four; retina: 5.
        #expect(inside == 21 + 5 + Self.writtenRectangle("schagen") && outside > 0)
    }

    /// The tiles a fixture tileset was given (``ServerFixtures``' rule), whatever the reader says.
    static func writtenTiles(_ id: String) -> [Tile] {
        switch id {
        case "blue": return ServerFixtures.pyramid(0...2)
        case "retina": return ServerFixtures.pyramid(0...1)
        default:
            let bounds = GeoBounds(west: -30.5, south: 20, east: 30, north: 60.5)
            return ServerFixtures.pyramid(2...4).filter { ServerFixtures.intersects($0.bounds, bounds) }
        }
    }

    /// The tiles in the rectangles of columns and rows a fixture's written tiles span, all zooms.
    static func writtenRectangle(_ id: String) -> Int {
        Dictionary(grouping: writtenTiles(id), by: \.z).values.map { t in
            (t.map(\.x).max()! - t.map(\.x).min()! + 1) * (t.map(\.y).max()! - t.map(\.y).min()! + 1)
        }.reduce(0, +)
    }

    @Test func theCapabilitiesAreOneDocumentByKVPAndREST() throws {
        let kvp = s.get("/wmts?service=wmts&request=GetCapabilities", ["Host": "example.org:8080"])
        let rest = s.get("/wmts/1.0.0/WMTSCapabilities.xml", ["Host": "example.org:8080"])
        #expect(kvp.status == 200 && kvp.body == rest.body && kvp.header("Content-Type") == "application/xml; charset=utf-8")
        let text = String(decoding: kvp.body, as: UTF8.self)
        for id in ["blue", "schagen", "retina"] { #expect(text.contains("<ows:Identifier>\(id)</ows:Identifier>")) }
        #expect(text.contains(#"template="http://example.org:8080/wmts/1.0.0/schagen/{Style}/{TileMatrixSet}/{TileMatrix}/{TileRow}/{TileCol}.png""#))
        // WebMercatorQuad up to the highest zoom of its layers (4), the retina set with 1024 px tiles.
        #expect(text.contains("<ows:Identifier>4</ows:Identifier>") && !text.contains("<ows:Identifier>5</ows:Identifier>"))
        #expect(text.contains("<ows:Identifier>WebMercatorQuad@4x</ows:Identifier>") && text.contains("<TileWidth>1024</TileWidth>"))
        #expect(text.contains("<ows:SupportedCRS>urn:ogc:def:crs:EPSG::3857</ows:SupportedCRS>"))
        #expect(text.contains("<TopLeftCorner>-20037508.342789244 20037508.342789244</TopLeftCorner>"))
        #expect(s.get("/wmts?SERVICE=WMTS&REQUEST=GetCapabilities&ACCEPTVERSIONS=1.0.0,2.0.0").status == 200)
    }

    /// What a bad request gets: the exception code, the locator and the status of WMTS 1.0.0
    /// Table 28 and OWS Common 1.1 Table 28.
    @Test(arguments: [
        ("/wmts", "MissingParameterValue", "service", 400),
        ("/wmts?SERVICE=WMS&REQUEST=GetCapabilities", "InvalidParameterValue", "service", 400),
        ("/wmts?SERVICE=WMTS", "MissingParameterValue", "request", 400),
        ("/wmts?SERVICE=WMTS&REQUEST=GetMap", "InvalidParameterValue", "request", 400),
        ("/wmts?SERVICE=WMTS&REQUEST=GetFeatureInfo", "OperationNotSupported", "request", 501),
        ("/wmts?SERVICE=WMTS&REQUEST=GetCapabilities&ACCEPTVERSIONS=2.0.0", "VersionNegotiationFailed", "acceptversions", 400),
        ("/wmts?SERVICE=WMTS&REQUEST=GetTile&LAYER=blue", "MissingParameterValue", "version", 400),
        ("/wmts?SERVICE=WMTS&REQUEST=GetTile&VERSION=2.0.0", "InvalidParameterValue", "version", 400),
        ("/wmts?SERVICE=WMTS&REQUEST=GetTile&VERSION=1.0.0&LAYER=blue", "MissingParameterValue", "style", 400),
        (kvp("nope", "WebMercatorQuad", 0, row: 0, col: 0), "InvalidParameterValue", "layer", 400),
        (kvp("blue", "WorldCRS84Quad", 0, row: 0, col: 0), "InvalidParameterValue", "tilematrixset", 400),
        (kvp("blue", "WebMercatorQuad", 3, row: 0, col: 0), "InvalidParameterValue", "tilematrix", 400),
        (kvp("blue", "WebMercatorQuad", 1, row: 2, col: 0), "TileOutOfRange", "tilerow", 400),
        (kvp("blue", "WebMercatorQuad", 1, row: 0, col: 2), "TileOutOfRange", "tilecol", 400),
        (
            kvp("blue", "WebMercatorQuad", 1, row: 0, col: 0).replacingOccurrences(of: "TILECOL=0", with: "TILECOL=-1"),
            "InvalidParameterValue", "tilecol", 400
        ),
        (
            kvp("blue", "WebMercatorQuad", 0, row: 0, col: 0).replacingOccurrences(of: "image%2Fpng", with: "image%2Fjpeg"),
            "InvalidParameterValue", "format", 400
        ),
        (
            kvp("blue", "WebMercatorQuad", 0, row: 0, col: 0).replacingOccurrences(of: "STYLE=default", with: "STYLE=dark"),
            "InvalidParameterValue", "style", 400
        ),
        ("/wmts/1.0.0/blue/default/WebMercatorQuad/0/0/0.jpg", "InvalidParameterValue", "format", 400),
        ("/wmts/1.0.0/blue/default/WebMercatorQuad/0/0/x.png", "InvalidParameterValue", "tilecol", 400),
    ])
    func aBadRequestGetsItsOWSException(target: String, code: String, locator: String, status: Int) throws {
        let r = s.get(target)
        let body = String(decoding: r.body, as: UTF8.self)
        #expect(r.status.code == status, "\(target): \(body)")
        #expect(r.header("Content-Type") == "application/xml; charset=utf-8")
        #expect(body.contains(#"<ows:Exception exceptionCode="\#(code)" locator="\#(locator)">"#), "\(target): \(body)")
        #expect(body.hasPrefix(#"<?xml version="1.0" encoding="UTF-8"?>"#) && body.contains("<ows:ExceptionReport"))
    }

    @Test func ogcAPITilesLinksEachTilesetToItsSetAndTiles() throws {
        func json(_ target: String) throws -> JSONValue {
            let r = s.get(target, ["Host": "h:1"])
            #expect(r.status == 200 && r.header("Content-Type") == "application/json", "\(target)")
            return try JSONValue.parse(r.body)
        }
        let tileset = try json("/ogcapi/collections/schagen/map/tiles/WebMercatorQuad")
        let links = tileset["links"]?.arrayValue ?? []
        let item = try #require(links.first { $0["rel"] == .string("item") })
        #expect(item["href"] == .string("http://h:1/ogcapi/collections/schagen/map/tiles/WebMercatorQuad/{tileMatrix}/{tileRow}/{tileCol}"))
        #expect(item["templated"] == .bool(true) && item["type"] == .string("image/png"))
        #expect(
            links.contains {
                $0["rel"] == .string("http://www.opengis.net/def/rel/ogc/1.0/tiling-scheme")
                    && $0["href"] == .string("http://h:1/ogcapi/tileMatrixSets/WebMercatorQuad")
            })
        #expect(tileset["tileMatrixSetURI"] == .string("http://www.opengis.net/def/tilematrixset/OGC/1.0/WebMercatorQuad"))
        let set = try json("/ogcapi/tileMatrixSets/WebMercatorQuad")
        #expect(try TileMatrixSet(json: Data(s.get("/ogcapi/tileMatrixSets/WebMercatorQuad").body)) == .webMercatorQuad)
        #expect(set["id"] == .string("WebMercatorQuad"))
        // The retina fixture says tile_size 512 at scale 2: tiles of 1024 px on the z/x/y grid.
        let retina = try TileMatrixSet(json: Data(s.get("/ogcapi/tileMatrixSets/WebMercatorQuad@4x").body))
        #expect(retina.tileMatrices[1].tileWidth == 1024 && retina.tileMatrices[1].cellSize == TileMatrixSet.webMercatorQuad.tileMatrices[3].cellSize)
        #expect(try json("/ogcapi/collections")["collections"]?.arrayValue?.count == 3)
        #expect(s.get("/ogcapi/collections/nope").status == 404)
        #expect(s.get("/ogcapi/collections/blue/map/tiles/WorldCRS84Quad").status == 404)
        #expect(s.get("/ogcapi/collections/blue/map/tiles/WebMercatorQuad/0/0/x").status == 400)
        #expect(s.get("/ogcapi/tileMatrixSets/WorldCRS84Quad").status == 404)
    }

    /// Tilesets named `wmts` and `ogcapi` keep their XYZ tiles and TileJSON: no route of the two
    /// standards has a tile path's shape.
    @Test func tilesetsNamedLikeTheStandardsPrefixesKeepTheirPaths() throws {
        let dir = NSTemporaryDirectory() + "tegula-standards-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for name in ["wmts", "ogcapi.mbtiles"] {
            let w = try Tileset.openWriter(at: dir + "/" + name)
            for t in ServerFixtures.pyramid(0...1) { try w.write(t, data: ServerFixtures.bytes(name, t)) }
            try w.finish(metadata: TilesetMetadata(name: name, zooms: ZoomRange(min: 0, max: 1)!))
        }
        let s = TileService(
            catalogue: try Catalogue.load(paths: [dir]), configuration: ServerFixtures.configuration,
            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        for (id, name) in [("wmts", "wmts"), ("ogcapi", "ogcapi.mbtiles")] {
            #expect(s.get("/\(id)/1/1/0.png").body == ServerFixtures.bytes(name, Tile(x: 1, y: 0, z: 1)))
            #expect(s.get("/\(id)/tms/1/1/1.png").body == ServerFixtures.bytes(name, Tile(x: 1, y: 0, z: 1)))
            #expect(s.get("/\(id).json").status == 200)
        }
        #expect(s.get("/wmts/1.0.0/wmts/default/WebMercatorQuad/1/0/1.png").body == ServerFixtures.bytes("wmts", Tile(x: 1, y: 0, z: 1)))
        #expect(
            s.get("/ogcapi/collections/ogcapi/map/tiles/WebMercatorQuad/1/0/1").body == ServerFixtures.bytes("ogcapi.mbtiles", Tile(x: 1, y: 0, z: 1))
        )
    }
}
