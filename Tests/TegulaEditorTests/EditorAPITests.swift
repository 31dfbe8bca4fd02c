import Foundation
import HTTPTypes
import TegulaEditor
import TegulaGDAL
import TegulaGeometry
import TegulaGeoreference
import TegulaPyramid
import TegulaServer
import TegulaTestSupport
import TegulaWarp
import Testing

/// The editor's HTTP API on a live loopback server over the real Schagen scan (marble-qt-data)
/// and its committed GCPs: every route, every refusal, the figures against the library's own
/// fit, saves read back by Tegula's GCP reader, the autosave restored by a new server.
@Suite(.serialized)
struct EditorAPITests {

    /// A service whose output is `name` in a fresh folder, started from the committed GCPs.
    static func service(output name: String = "out.points", folder: URL? = nil) throws -> (EditorService, URL) {
        let dir = try folder ?? TemporaryFolder.make("editor")
        let out = dir.appendingPathComponent(name).path
        let initial = try EditorSession(try GCPReader.read(path: Schagen1689.points), output: out)
        let s = try EditorService(
            scanPath: Schagen1689.scan, output: out, initial: initial, basemaps: [.openStreetMap], basemapTilesets: nil,
            renderThreads: 2)
        return (s, dir)
    }

    struct Answer: Sendable {
        var status: Int
        var body: Data
        var type: String?
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
    }

    /// Runs `body` with a function that sends one request to a live server for `service`.
    static func live(
        _ service: EditorService,
        _ body: @escaping @Sendable (_ send: @escaping @Sendable (HTTPRequest.Method, String, Data?) async throws -> Answer) async throws -> Void
    ) async throws {
        try await LiveServer.run(service) { server in
            try await body { method, uri, data in
                let r = try await server.fetch(
                    uri, method: method.rawValue, headers: ["Content-Type": "application/json"],
                    body: data.map { [UInt8]($0) })
                return Answer(status: r.status, body: Data(r.body), type: r.headers["content-type"])
            }
        }
    }

    static func encode(_ s: EditorSession) -> Data { s.json() }
    static func decodeFit(_ d: Data) throws -> FitResult { try JSONDecoder().decode(FitResult.self, from: d) }

    @Test func sessionFitAndTheLibrarysOwnFigures() async throws {
        let (service, _) = try Self.service()
        let oracle = try Georeferencer.fit(GCPReader.read(path: Schagen1689.points), imageWidth: 2700, imageHeight: 1350, options: FitOptions())
        try await Self.live(service) { send in
            let got = try await send(.get, "/api/session", nil)
            #expect(got.status == 200 && got.type == "application/json")
            let session = try EditorSession.decode(got.body)
            #expect(session.gcps.count == 24 && session.gcpSRS.definition == "EPSG:4326" && session.transform == nil && session.mask == nil)
            #expect(session.gcps[5].id == "Cape of Good Hope" && session.gcps[5].pixel == PixelPoint(x: 1530, y: 923))
            #expect(got.json.keys.sorted() == ["gcp_srs", "gcps", "mask", "output", "transform"])
            let fitted = try await send(.post, "/api/fit", Self.encode(session))
            #expect(fitted.status == 200)
            let fit = try Self.decodeFit(fitted.body)
            let r = oracle.report
            #expect(fit.transform == oracle.kind)
            #expect(abs(try #require(fit.rmseM) - r.rmse.metres!) <= 1e-6 * r.rmse.metres!)
            #expect(abs(try #require(fit.looRmseM) - r.leaveOneOutRMSE.metres!) <= 1e-6 * r.leaveOneOutRMSE.metres!)
            #expect(fit.gcps.count == 24)
            for (f, o) in zip(fit.gcps, r.gcps) {
                #expect(f.id == o.id && abs(f.residualPx! - o.residualPixels) < 1e-9 && abs(f.residualM! - o.residualMetres) < 1e-6)
                #expect(f.looM == o.leaveOneOutMetres)
            }
            #expect(fit.comparison.contains("helmert") && fit.comparison.contains("tps"))
            #expect(fit.version.count == 16)
            let keys = Set(fitted.json.keys)
            #expect(keys.isSuperset(of: ["transform", "rmse_m", "gcps", "warnings", "version"]))
            let g0 = try #require((fitted.json["gcps"] as? [[String: Any]])?.first)
            #expect(Set(g0.keys).isSuperset(of: ["id", "residual_px", "residual_m", "loo_m"]))
            // The same body, the same version; a moved point, another version and other residuals.
            #expect(try Self.decodeFit(try await send(.post, "/api/fit", Self.encode(session)).body).version == fit.version)
            var moved = session
            moved.gcps[5].pixel = PixelPoint(x: 1540, y: 930)
            let refit = try Self.decodeFit(try await send(.post, "/api/fit", Self.encode(moved)).body)
            #expect(refit.version != fit.version && refit.gcps[5].residualPx != fit.gcps[5].residualPx)
            // Autosaved: GET /api/session answers the last session posted.
            #expect(try EditorSession.decode(try await send(.get, "/api/session", nil).body) == moved)
        }
    }

    @Test func refusalsAre422WithACodeAndTheField() async throws {
        let (service, _) = try Self.service()
        let base = service.current
        func variant(_ change: (inout EditorSession) -> Void) -> Data { var s = base; change(&s); return s.json() }
        // A value the typed session cannot hold (an unknown transform or CRS) goes in on the wire.
        func wire(_ key: String, _ value: String) throws -> Data {
            var o = try #require(try JSONSerialization.jsonObject(with: base.json()) as? [String: Any])
            o[key] = value
            return try JSONSerialization.data(withJSONObject: o)
        }
        let cases: [(String, Data, String, String?)] = [
            ("bad JSON", Data("{\"gcps\": [".utf8), "bad_session", nil),
            ("missing ground", Data("{\"gcps\":[{\"id\":\"a\",\"pixel\":[1,2]}]}".utf8), "bad_session", "gcps[0].ground"),
            ("pixel outside", variant { $0.gcps[2].pixel = PixelPoint(x: 2701, y: 10) }, "pixel_outside_scan", "gcps[2].pixel (Cape Ortegal)"),
            ("latitude 95", variant { $0.gcps[3].ground = GroundPoint(x: 10, y: 95) }, "invalid_ground", "gcps[3].ground (Cap Blanc)"),
            ("one point", variant { $0.gcps = Array($0.gcps.prefix(1)) }, "too_few_points", nil),
            (
                "collinear",
                variant { s in
                    s.transform = .polynomial1
                    s.gcps = (0..<4).map { i in
                        EditorGCP(
                            id: "c\(i)", pixel: PixelPoint(x: 100 + 100 * Double(i), y: 100 + 50 * Double(i)),
                            ground: GroundPoint(x: Double(i), y: Double(i) / 2))
                    }
                }, "collinear", nil
            ),
            ("unknown transform", try wire("transform", "bendy"), "bad_transform", "transform"),
            ("unknown CRS", try wire("gcp_srs", "EPSG:999999"), "bad_crs", "gcp_srs"),
            ("two-vertex mask", variant { $0.mask = [PixelPoint(x: 0, y: 0), PixelPoint(x: 10, y: 10)] }, "bad_mask", "mask"),
            ("duplicate id", variant { $0.gcps[1].id = $0.gcps[0].id }, "bad_session", "gcps[1].id"),
            ("another output", variant { $0.output = "/tmp/elsewhere.points" }, "bad_session", "output"),
        ]
        try await Self.live(service) { send in
            for (what, body, code, field) in cases {
                for (method, uri) in [(HTTPRequest.Method.post, "/api/fit"), (.put, "/api/session")] {
                    let a = try await send(method, uri, body)
                    #expect(a.status == 422, "\(what) \(uri): \(a.status)")
                    #expect(a.json["code"] as? String == code, "\(what): \(a.json)")
                    #expect((a.json["error"] as? String)?.isEmpty == false)
                    if let field { #expect(a.json["field"] as? String == field, "\(what): \(a.json)") }
                }
            }
        }
        // Nothing was saved by any refused PUT.
        #expect(!FileManager.default.fileExists(atPath: service.output))
    }

    @Test func warningsCarryStableCodes() async throws {
        let (service, _) = try Self.service()
        let base = service.current
        try await Self.live(service) { send in
            var dup = base
            dup.gcps.append(EditorGCP(id: "again", pixel: dup.gcps[0].pixel, ground: GroundPoint(x: 1, y: 1)))
            let d = try Self.decodeFit(try await send(.post, "/api/fit", dup.json()).body)
            #expect(d.warnings.contains { $0.code == "duplicate" && $0.id == "again" })
            #expect(d.gcps.last?.enabled == false)
            var tps = base
            tps.transform = .tps
            let t = try Self.decodeFit(try await send(.post, "/api/fit", tps.json()).body)
            #expect(t.transform == .tps && t.warnings.contains { $0.code == "tps_interpolates" })
            #expect(t.gcps.allSatisfy { ($0.residualPx ?? 1) < 1e-6 } && t.gcps.allSatisfy { ($0.looM ?? 0) > 0 })
            var three = base
            three.gcps = Array(three.gcps.prefix(3))
            three.transform = .polynomial1
            let f = try Self.decodeFit(try await send(.post, "/api/fit", three.json()).body)
            #expect(f.warnings.contains { $0.code == "too_few_points" })
            var line = base
            line.transform = .helmert
            line.gcps = (0..<4).map { i in
                EditorGCP(
                    id: "l\(i)", pixel: PixelPoint(x: 100 + 500 * Double(i), y: 600 + 2 * Double(i)),
                    ground: GroundPoint(x: Double(i) * 10, y: 1 + Double(i) / 5))
            }
            let l = try Self.decodeFit(try await send(.post, "/api/fit", line.json()).body)
            #expect(l.warnings.contains { $0.code == "collinear" })
            let raw = try await send(.post, "/api/fit", tps.json())
            let w = try #require((raw.json["warnings"] as? [[String: Any]])?.first)
            #expect(w.keys.sorted() == ["code", "id", "message"])
        }
    }

    @Test(arguments: ["out.points", "out.csv", "out.json", "out.vrt"])
    func saveWritesTheFormatItsExtensionNamesAndReadsBackToTheSameFit(name: String) async throws {
        let (service, dir) = try Self.service(output: name)
        var s = service.current
        s.transform = .polynomial2
        s.mask = [PixelPoint(x: 100, y: 50), PixelPoint(x: 2600, y: 50), PixelPoint(x: 2600, y: 1300), PixelPoint(x: 100, y: 1300)]
        s.gcps[2].enabled = false
        s.gcps[4].note = "a note"
        let session = s
        try await Self.live(service) { send in
            let a = try await send(.put, "/api/session", session.json())
            #expect(a.status == 200, "\(String(decoding: a.body, as: UTF8.self))")
            let fit = try Self.decodeFit(a.body)
            let path = dir.appendingPathComponent(name).path
            let back = try GCPReader.read(path: path)
            #expect(back.transformHint == .polynomial2)
            #expect(back.mask == session.mask!)
            let refit = try Georeferencer.fit(back, imageWidth: 2700, imageHeight: 1350, options: FitOptions())
            #expect(refit.kind == .polynomial2)
            #expect(abs(refit.report.rmse.metres! - fit.rmseM!) <= 1e-6 * fit.rmseM!, "\(name): \(refit.report.rmse.metres!) vs \(fit.rmseM!)")
            #expect(back.enabled.count == 23)
            // Written whole: no temporary file is left beside it.
            let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".tmp") }
            #expect(left.isEmpty, "\(left)")
        }
    }

    @Test func aNewServerRestoresTheAutosavedSession() async throws {
        let (service, dir) = try Self.service(output: "restored.json")
        var s = service.current
        s.gcps.removeLast(3)
        s.gcps[0].note = "Gibraltar"
        s.transform = .projective
        s.mask = [PixelPoint(x: 0, y: 0), PixelPoint(x: 2700, y: 0), PixelPoint(x: 2700, y: 1350)]
        let posted = s
        try await Self.live(service) { send in
            let a = try await send(.post, "/api/fit", posted.json())
            #expect(a.status == 200)
        }
        #expect(FileManager.default.fileExists(atPath: EditorService.sidecarPath(service.output)))
        let (again, _) = try Self.service(output: "restored.json", folder: dir)
        try await Self.live(again) { send in
            let got = try EditorSession.decode(try await send(.get, "/api/session", nil).body)
            #expect(got == posted)
        }
    }

    @Test func predictGoesBothWaysThroughTheExactInverse() async throws {
        let (service, _) = try Self.service()
        let session = service.current
        try await Self.live(service) { send in
            let fit = try Self.decodeFit(try await send(.post, "/api/fit", session.json()).body)
            let f = try await send(.get, "/api/predict?v=\(fit.version)&x=1530&y=923", nil)
            #expect(f.status == 200)
            let g = try #require(f.json["ground"] as? [Double])
            // The default fit here is tps (lowest leave-one-out error), which passes through every
            // GCP: the twin of the Cape of Good Hope's pixel is its ground, measured 1.2e-8 m
            // away; 1 mm is the margin.
            #expect(fit.transform == .tps)
            let km = Self.greatCircleKm(g, [18.47, -34.36])
            #expect(km <= 1e-6, "the predicted twin is \(km) km from the GCP's ground")
            let b = try await send(.get, "/api/predict?v=\(fit.version)&lon=\(g[0])&lat=\(g[1])", nil)
            let p = try #require(b.json["pixel"] as? [Double])
            #expect(abs(p[0] - 1530) < 1e-4 && abs(p[1] - 923) < 1e-4, "\(p)")
            #expect(try await send(.get, "/api/predict?v=0000000000000000&x=1&y=1", nil).status == 404)
            #expect(try await send(.get, "/api/predict?v=\(fit.version)&x=a", nil).status == 400)
        }
    }

    @Test func overlayTilesFollowTheFitsVersion() async throws {
        let (service, _) = try Self.service()
        let session = service.current
        try await Self.live(service) { send in
            let fit = try Self.decodeFit(try await send(.post, "/api/fit", session.json()).body)
            let meta = try await send(.get, "/overlay/\(fit.version).json", nil)
            #expect(meta.status == 200)
            let maxzoom = try #require(meta.json["maxzoom"] as? Int)
            #expect(maxzoom >= 2 && (meta.json["tiles"] as? String)?.contains(fit.version) == true)
            // Every tile of the least zoom: the warped scan lies on some of them.
            let z = min(try #require(meta.json["minzoom"] as? Int), 3)
            for x in 0..<(1 << z) {
                for y in 0..<(1 << z) {
                    let t = try await send(.get, "/overlay/\(fit.version)/\(z)/\(x)/\(y).png", nil)
                    #expect(t.status == 200 && t.type == "image/png")
                }
            }
            // Their pixels against `tegula tile`'s (TileJob's) of the same fit. Measured at zoom 0:
            // 31,662 px opaque in both at 41.92 dB, 23 px opaque in one only (at the footprint's
            // edge, none more than alpha 17); floors 0.5 dB and 30,000 px below, 35 px and alpha 32
            // above.
            let a = try await Self.overlayAgainstPyramid(send, version: fit.version, zoom: z, maxZoom: maxzoom)
            #expect(a.opaque >= 30_000 && a.psnr >= 41.4, "\(a)")
            #expect(a.alphaMismatch <= 35 && a.maxAlphaDiff <= 32, "\(a)")
            #expect(try await send(.get, "/overlay/ffffffffffffffff/1/0/0.png", nil).status == 404)
            #expect(try await send(.get, "/overlay/\(fit.version)/1/5/0.png", nil).status == 400)  // off the grid: serve's 400
        }
    }

    /// The great-circle distance between two longitude/latitude points, in km (a sphere of the
    /// WGS 84 mean radius, 6371.0088 km).
    static func greatCircleKm(_ a: [Double], _ b: [Double]) -> Double {
        let r = Double.pi / 180, dLat = (b[1] - a[1]) * r, dLon = (b[0] - a[0]) * r
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(a[1] * r) * cos(b[1] * r) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * 6371.0088 * asin(min(1, h.squareRoot()))
    }

    /// A PNG's pixels as GDAL reads them, as RGBA (an RGB PNG is opaque).
    static func rgba(_ png: Data, in dir: URL) throws -> [UInt8] {
        let file = dir.appendingPathComponent("t-\(UUID()).png")
        try png.write(to: file)
        let d = try Dataset(path: file.path)
        try #require(d.width == 256 && d.height == 256 && d.bandCount >= 3, "\(d.width) × \(d.height), \(d.bandCount) bands")
        var px = [UInt8](repeating: 255, count: 256 * 256 * 4)
        var band = [UInt8](repeating: 0, count: 256 * 256)
        for b in 1...min(4, d.bandCount) {
            try band.withUnsafeMutableBufferPointer { try d.readBytes(x: 0, y: 0, width: 256, height: 256, bands: [b], into: $0.baseAddress!) }
            for i in 0..<(256 * 256) { px[i * 4 + b - 1] = band[i] }
        }
        return px
    }

    /// How the overlay's tiles at `zoom` agree with the tiles `TileJob` (`tegula tile`) cuts of
    /// the scan with the same GCPs and the default fit (the session's, which the overlay shows):
    /// pixels opaque in one and not the other, and the PSNR of the colour where both are opaque.
    struct Agreement: CustomStringConvertible {
        var tiles = 0, opaque = 0, alphaMismatch = 0, maxAlphaDiff = 0
        var se = 0.0
        var psnr: Double { se == 0 ? .infinity : 10 * log10(255 * 255 / (se / Double(3 * opaque))) }
        var description: String {
            "\(tiles) tiles, \(opaque) px opaque in both at \(psnr) dB, \(alphaMismatch) px opaque in only one, largest alpha difference \(maxAlphaDiff)"
        }
    }

    static func overlayAgainstPyramid(
        _ send: @Sendable (HTTPRequest.Method, String, Data?) async throws -> Answer,
        version: String, zoom z: Int, maxZoom: Int
    ) async throws -> Agreement {
        let dir = try TemporaryFolder.make("overlay-pyramid")
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = WarpInput(path: Schagen1689.scan, gcpSet: try GCPReader.read(path: Schagen1689.points), fit: FitOptions())
        var job = TileJob(source: try input.resolve(), output: dir.appendingPathComponent("pyramid").path, name: "pyramid")
        job.settings = try TileSettings(zooms: ZoomRequest(min: z, max: maxZoom)!)
        _ = try job.run()
        var a = Agreement()
        for x in 0..<(1 << z) {
            for y in 0..<(1 << z) {
                let overlay = try await send(.get, "/overlay/\(version)/\(z)/\(x)/\(y).png", nil).body
                let file = dir.appendingPathComponent("pyramid/\(z)/\(x)/\(y).png")
                let ours = try rgba(overlay, in: dir)
                let theirs =
                    FileManager.default.fileExists(atPath: file.path)
                    ? try rgba(try Data(contentsOf: file), in: dir) : [UInt8](repeating: 0, count: 256 * 256 * 4)
                a.tiles += 1
                for i in 0..<(256 * 256) {
                    let p = ours[i * 4 + 3], q = theirs[i * 4 + 3]
                    a.maxAlphaDiff = max(a.maxAlphaDiff, abs(Int(p) - Int(q)))
                    if (p == 0) != (q == 0) { a.alphaMismatch += 1 }
                    guard p == 255, q == 255 else { continue }
                    a.opaque += 1
                    for c in 0..<3 { let d = Double(ours[i * 4 + c]) - Double(theirs[i * 4 + c]); a.se += d * d }
                }
            }
        }
        return a
    }

    /// GCPs in a projected CRS are brought to longitude/latitude (the page's map) at load, and a
    /// coordinate typed in a projected CRS is converted by `/api/convert`; the oracle is the
    /// spherical Web Mercator formula.
    @Test func projectedCoordinatesBecomeLongitudeLatitude() async throws {
        let dir = try TemporaryFolder.make("editor-3857")
        let r = 6378137.0
        func merc(_ lon: Double, _ lat: Double) -> (Double, Double) {
            (r * lon * .pi / 180, r * log(tan(.pi / 4 + lat * .pi / 360)))
        }
        let (x, y) = merc(18.47, -34.36)
        let csv = dir.appendingPathComponent("m.csv")
        try Data("x,y,X,Y,name\n1530,923,\(x),\(y),Good Hope\n750,1107,\(merc(-67.27, -55.98).0),\(merc(-67.27, -55.98).1),Horn\n".utf8).write(
            to: csv)
        let s = try EditorSession(GCPReader.read(path: csv.path, gcpCRS: try CRS("EPSG:3857")), output: dir.appendingPathComponent("m.points").path)
        #expect(s.gcpSRS.definition == "EPSG:4326")
        #expect(abs(s.gcps[0].ground.x - 18.47) < 1e-9 && abs(s.gcps[0].ground.y + 34.36) < 1e-9, "\(s.gcps[0].ground)")
        let (service, _) = try Self.service()
        try await Self.live(service) { send in
            let a = try await send(.get, "/api/convert?crs=EPSG:3857&x=\(x)&y=\(y)", nil)
            #expect(a.status == 200)
            let g = try #require(a.json["ground"] as? [Double])
            #expect(abs(g[0] - 18.47) < 1e-9 && abs(g[1] + 34.36) < 1e-9, "\(g)")
            let bad = try await send(.get, "/api/convert?crs=EPSG:999999&x=1&y=2", nil)
            #expect(bad.status == 422 && bad.json["code"] as? String == "bad_crs")
            #expect(try await send(.get, "/api/convert?crs=EPSG:3857&x=1", nil).status == 400)
            #expect(try await send(.post, "/api/convert", Data()).status == 405)
        }
    }

    @Test func pageAssetsMethodsAndUnknownRoutes() async throws {
        let (service, _) = try Self.service()
        try await Self.live(service) { send in
            let page = try await send(.get, "/", nil)
            let html = String(decoding: page.body, as: UTF8.self)
            #expect(page.status == 200 && html.contains("/leaflet/leaflet.js") && html.contains("Ctrl+Z") && !html.contains("unpkg"))
            #expect(try await send(.get, "/editor.js", nil).status == 200)
            #expect(try await send(.get, "/leaflet/leaflet.js", nil).status == 200)
            #expect(try await send(.get, "/leaflet/nothing.js", nil).status == 404)
            #expect(try await send(.delete, "/api/session", nil).status == 405)
            #expect(try await send(.get, "/api/fit", nil).status == 405)
            #expect(try await send(.post, "/api/predict", Data()).status == 405)
            #expect(try await send(.get, "/api/nothing", nil).status == 404)
            #expect(try await send(.get, "/nothing", nil).status == 404)
            #expect(try await send(.post, "/", Data()).status == 405)
            #expect(try await send(.get, "/basemap/x/0/0/0.png", nil).status == 404)
            let e = try await send(.get, "/nothing", nil)
            #expect((e.json["error"] as? String)?.isEmpty == false)
        }
    }

    /// Editor tile paths follow the HTTP core's one rule (`RequestTarget.number`), as `tegula
    /// serve`'s do: no sign, no leading zeros, no zoom past 30, no `..`; a 404 lists every route.
    @Test func tilePathsFollowTheServersStrictNumberRule() async throws {
        let (service, _) = try Self.service()
        try await Self.live(service) { send in
            #expect(try await send(.get, "/iiif/schagen1689/0,0,256,256/max/0/default.jpg", nil).status == 200)
            for bad in [
                "/overlay/v/01/0/0.png", "/overlay/v/31/0/0.png", "/overlay/v/1/0/1e0.png", "/overlay/../0/0/0.png",
                "/iiif/schagen1689/0,0,+256,256/max/0/default.jpg", "/iiif/schagen1689/0,0,256,256/max/0/default.gif",
            ] {
                #expect(try await send(.get, bad, nil).status == 400, "\(bad)")
            }
            let e = try await send(.get, "/nothing", nil)
            #expect((e.json["error"] as? String)?.contains("/api/convert") == true)
            #expect(try await send(.head, "/api/session", nil).status == 405)
        }
    }
}
