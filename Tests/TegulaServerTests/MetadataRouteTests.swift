import Foundation
import TegulaTileset
import Testing

@testable import TegulaHTTP
@testable import TegulaServer

/// TileJSON, /maps, /health, the viewer and its assets; the catalogue.
struct MetadataRouteTests {
    let f = ServerFixtures.shared

    @Test func tileJSONFromHostHeader() throws {
        let r = f.service().get("/schagen.json", ["Host": "127.0.0.1:8080"])
        #expect(r.status == 200 && r.header("Content-Type") == "application/json" && r.header("ETag") != nil)
        let j = try JSONValue.parse(r.body)
        #expect(j["tilejson"] == .string("3.0.0"))
        #expect(j["tiles"] == .array([.string("http://127.0.0.1:8080/schagen/{z}/{x}/{y}.png")]))
        #expect(j["scheme"] == .string("xyz"))
        #expect(j["minzoom"] == .int(2) && j["maxzoom"] == .int(4))
        #expect(j["bounds"] == .array([-30.5, 20, 30, 60.5].map(JSONValue.double)))
        #expect(j["name"] == .string("Schagen 1689") && j["attribution"] == .string("G. van Schagen"))
        #expect(j["footprint"] == ServerFixtures.footprint)
    }

    @Test func tileJSONFromPublicURL() throws {
        let s = f.service(ServerConfiguration(publicURL: "https://maps.example.org/tiles/"))
        let j = try JSONValue.parse(s.get("/retina.json", ["Host": "internal:9000"]).body)
        #expect(j["tiles"] == .array([.string("https://maps.example.org/tiles/retina/{z}/{x}/{y}@2x.png")]))
        #expect(f.service().get("/nosuch.json").status == 404)
    }

    @Test func mapsListsScansCoveringAPoint() throws {
        let s = f.service()
        func ids(_ q: String) throws -> [String] {
            let r = s.get("/maps?" + q)
            #expect(r.status == 200)
            return try JSONValue.parse(r.body)["maps"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
        }
        #expect(try ids("lon=0&lat=40") == ["blue", "schagen", "retina"])
        #expect(try ids("lat=60.4&lon=-30.2") == ["blue", "retina"])  // inside the bounds, outside the footprint
        #expect(try ids("lon=100&lat=-10") == ["blue", "retina"])
        for bad in ["", "lon=1", "lon=x&lat=1", "lon=200&lat=0", "lon=0&lat=95", "lon=nan&lat=0", "lon=inf&lat=0"] {
            #expect(s.get("/maps?" + bad).status == 400, "\(bad)")
        }
    }

    @Test func healthAndViewer() throws {
        let s = f.service()
        let h = s.get("/health")
        #expect(h.status == 200)
        #expect(try JSONValue.parse(h.body)["tilesets"] == .int(3))
        let page = s.get("/")
        let html = String(decoding: page.body, as: UTF8.self)
        #expect(page.status == 200 && page.header("Content-Type") == "text/html; charset=utf-8")
        #expect(html.contains("/leaflet/leaflet.js") && html.contains("/viewer.js") && !html.contains("unpkg") && !html.contains("cdn"))
        #expect(html.contains("\"tiles\":\"/schagen/{z}/{x}/{y}.png\"") && html.contains("\"residual_m\":1234.5"))
        let js = s.get("/viewer.js")
        #expect(js.status == 200 && js.header("Content-Type") == "text/javascript; charset=utf-8")
        #expect(s.get("/leaflet/nosuch.js").status == 404)
    }

    /// Not skipped when Leaflet is missing: `scripts/setup` installs libjs-leaflet, and a viewer
    /// without it is broken, so its absence fails here.
    @Test func leafletServedFromDebianPackage() throws {
        try #require(
            FileManager.default.fileExists(atPath: "/usr/share/javascript/leaflet/leaflet.js"),
            "Debian's libjs-leaflet is not installed (scripts/setup installs it)")
        let s = f.service()
        let js = s.get("/leaflet/leaflet.js")
        #expect(js.status == 200 && js.body.count > 100_000)
        #expect(s.get("/leaflet/leaflet.css").header("Content-Type") == "text/css; charset=utf-8")
        #expect(s.get("/leaflet/images/marker-icon.png").header("Content-Type") == "image/png")
    }

    @Test func catalogueIdsAndErrors() throws {
        #expect(f.catalogue.entries.map(\.id) == ["blue", "schagen", "retina"])
        #expect(Tileset.name(of: "/a/b/Old Map.pmtiles") == "Old Map")
        #expect(throws: TileServerError.self) { try Catalogue.load(paths: [f.dir + "/secret.txt"]) }
        #expect(throws: TileServerError.self) { try Catalogue.load(paths: [f.dir + "/nope.mbtiles"]) }
        do {
            _ = try Catalogue.load(paths: [f.dir + "/blue", f.dir + "/blue"])
            Issue.record("duplicate ids accepted")
        } catch {
            // `Catalogue.load` throws `TileServerError` only (typed throws).
            #expect(error == .duplicateID(id: "blue", first: f.dir + "/blue", second: f.dir + "/blue"))
            #expect(error.description.contains("two tilesets have the id 'blue'"))
        }
        let all = try Catalogue.load(paths: [f.dir])  // a folder holding tilesets
        #expect(Set(all.entries.map(\.id)) == ["blue", "schagen", "retina"])
    }

    @Test func footprintPointInPolygon() {
        let fp = Footprint(ring: [
            .init(longitude: 170, latitude: -10), .init(longitude: -170, latitude: -10),
            .init(longitude: -170, latitude: 10), .init(longitude: 170, latitude: 10),
        ])
        #expect(fp.contains(.init(longitude: 179, latitude: 0)))
        #expect(fp.contains(.init(longitude: -175, latitude: 5)))
        #expect(!fp.contains(.init(longitude: 0, latitude: 0)))
        #expect(!fp.contains(.init(longitude: 179, latitude: 11)))
    }
}
