import Foundation
import TegulaTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `tegula serve` end to end on loopback: a folder, an MBTiles and a PMTiles made by
/// `tegula tile`, fetched with curl and compared byte for byte with the folder's files.
@Suite(.timeLimit(.minutes(20)))
struct ServeCLITests {
    @Test func servesAFolderAnMBTilesAndAPMTilesMadeByTegulaTile() throws {
        let dir = try TemporaryFolder.make("cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try BlueMarble.georeferenced(in: dir)
        let folder = dir.appendingPathComponent("bm").path
        let mb = dir.appendingPathComponent("bm-mb.mbtiles").path, pm = dir.appendingPathComponent("bm-pm.pmtiles").path
        for out in [folder, mb, pm] {
            let r = try TegulaBinary.run(["tile", input, "-o", out, "--zoom", "0-2", "--quiet"])
            #expect(r.status == 0, "\(r.stderr)")
        }
        let server = try LocalHTTPServer.tegula(["serve", folder, mb, pm])
        defer { server.stop() }

        let health = try server.get("/health")
        #expect(health.status == 200 && String(decoding: health.body, as: UTF8.self).contains("\"tilesets\":3"))
        // Twice: the first answer comes through Hummingbird's responder, the second from memory
        // on the event loop (TileFastPath); both must be the file's bytes.
        var compared = 0
        for _ in 0..<2 {
            for z in 0...2 {
                for x in 0..<(1 << z) {
                    for y in 0..<(1 << z) {
                        let file = "\(folder)/\(z)/\(x)/\(y).png"
                        guard let expected = FileManager.default.contents(atPath: file) else { continue }
                        for id in ["bm", "bm-mb", "bm-pm"] {
                            let r = try server.get("/\(id)/\(z)/\(x)/\(y).png")
                            #expect(r.status == 200 && r.body == expected, "\(id) \(z)/\(x)/\(y): \(r.status)")
                            #expect(r.headers["content-type"] == "image/png" && r.headers["etag"] != nil)
                            #expect(r.headers["content-encoding"] == nil)
                            compared += 1
                        }
                    }
                }
            }
        }
        #expect(compared == 2 * 3 * 21)
        for id in ["bm", "bm-mb", "bm-pm"] {
            let tj = try server.get("/\(id).json")
            let json = try JSONSerialization.jsonObject(with: tj.body) as? [String: Any]
            #expect(json?["tilejson"] as? String == "3.0.0")
            #expect((json?["tiles"] as? [String])?.first == "http://127.0.0.1:\(server.port)/\(id)/{z}/{x}/{y}.png")
            #expect(try server.get("/\(id)/3/0/0.png").status == 404, "zoom outside the tileset")
            #expect(try server.get("/\(id)/2/4/0.png").status == 400, "x beyond 2^z")
            // TMS route: XYZ row 0 is TMS row 3 at zoom 2.
            #expect(try server.get("/\(id)/tms/2/1/3.png").body == FileManager.default.contents(atPath: "\(folder)/2/1/0.png"))
        }
        #expect(try server.get("/%2e%2e/%2e%2e/etc/passwd").status == 400)
        let page = try server.get("/")
        #expect(page.status == 200 && String(decoding: page.body, as: UTF8.self).contains("/viewer.js"))
    }

    /// `--log-level debug` logs one line per request on stderr, the default level none;
    /// `--metrics` serves counters at /metrics, which is 404 without it; unknown levels are refused.
    @Test func logLevelAndMetricsOptions() throws {
        let dir = try TemporaryFolder.make("cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try BlueMarble.georeferenced(in: dir)
        let tiles = dir.appendingPathComponent("bm").path
        let made = try TegulaBinary.run(["tile", input, "-o", tiles, "--zoom", "0-1", "--quiet"])
        #expect(made.status == 0, "\(made.stderr)")

        let server = try LocalHTTPServer.tegula(["serve", tiles, "--log-level", "debug", "--metrics"])
        let tile = try server.get("/bm/0/0/0.png"), again = try server.get("/bm/0/0/0.png")
        #expect(tile.status == 200 && again.status == 200)
        #expect(server.output(contains: "GET /bm/0/0/0.png 200 \(tile.body.count)\n"), "\(server.output)")
        let scrape = try server.get("/metrics")
        let exposition = String(decoding: scrape.body, as: UTF8.self)
        #expect(scrape.status == 200 && scrape.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8")
        #expect(exposition.contains("tegula_http_requests_total{route=\"tile\",status=\"200\"} 2\n"), "\(exposition)")
        #expect(exposition.contains("tegula_tile_cache_hits_total 1\n") && exposition.contains("tegula_tile_cache_misses_total 1\n"))
        server.stop()
        #expect(server.output.contains("metrics at http://127.0.0.1:\(server.port)/metrics"))

        let plain = try LocalHTTPServer.tegula(["serve", tiles])
        #expect(try plain.get("/bm/0/0/0.png").status == 200)
        #expect(try plain.get("/metrics").status == 404)
        plain.stop()
        #expect(!plain.output(contains: "GET /bm/"), "\(plain.output)")  // info: no request lines

        // Unknown levels are refused with the list, which stops at error: errors are always logged.
        for level in ["loud", "critical"] {
            let refused = try TegulaBinary.run(["serve", tiles, "--log-level", level, "--port", "0"])
            #expect(refused.status != 0 && refused.stderr.contains("'\(level)' is invalid for '--log-level"), "\(refused.stderr)")
            #expect(refused.stderr.contains("- debug") && refused.stderr.contains("- error") && !refused.stderr.contains("- critical"))
        }
    }

    /// `tegula serve FILE.yml` renders every map of a pipeline file on demand, no stage run: the
    /// max-zoom tiles are the bytes `tegula tile` writes for the same scan, GCPs and options.
    @Test func servesAPipelineFileOnDemandWithTheBytesTegulaTileWrites() throws {
        let dir = try TemporaryFolder.make("cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try BlueMarble.georeferenced(in: dir)
        let yml = dir.appendingPathComponent("maps.yml").path
        try "version: 1\nmaps:\n  - name: scan\n    input: \(input)\n    tile: {min_zoom: 0, max_zoom: 3}\n    output: out.pmtiles\n"
            .write(toFile: yml, atomically: true, encoding: .utf8)
        let folder = dir.appendingPathComponent("cut").path
        let r = try TegulaBinary.run(["tile", input, "-o", folder, "--zoom", "0-3", "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let server = try LocalHTTPServer.tegula(["serve", yml])
        defer { server.stop() }
        var compared = 0
        for x in 0..<8 {
            for y in 0..<8 {
                let got = try server.get("/scan/3/\(x)/\(y).png")
                if let expected = FileManager.default.contents(atPath: "\(folder)/3/\(x)/\(y).png") {
                    #expect(got.status == 200 && got.body == expected, "3/\(x)/\(y): \(got.status)")
                    #expect(got.headers["server-timing"]?.hasPrefix("render;dur=") == true)
                    compared += 1
                } else {
                    #expect(got.status == 404, "3/\(x)/\(y) is empty in the pyramid")
                }
            }
        }
        #expect(compared > 5)
        let tj = try JSONSerialization.jsonObject(with: try server.get("/scan.json").body) as? [String: Any]
        #expect((tj?["tiles"] as? [String])?.first?.contains("/scan/{z}/{x}/{y}.png?v=") == true)
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.pmtiles").path), "no stage ran")
        let page = String(decoding: try server.get("/").body, as: UTF8.self)
        #expect(page.contains("\"ondemand\":true"))
    }

    /// A PATH that cannot be georeferenced stops the server before it starts, with one line.
    @Test func aSourceThatCannotBeGeoreferencedIsRefusedAtStartUp() throws {
        let dir = try TemporaryFolder.make("cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = dir.appendingPathComponent("notes.tif").path
        try "not a raster".write(toFile: text, atomically: true, encoding: .utf8)
        // A plain scan with no georeference is no longer refused: it is served as an IIIF image
        // alone (issue 29 item 4, IIIFServeCLITests).
        for path in [text, BlueMarble.path + ":" + dir.appendingPathComponent("none.points").path] {
            let r = try TegulaBinary.run(["serve", path, "--port", "0"])
            #expect(r.status != 0, "\(path) was served")
            #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.hasPrefix("tegula: "), "\(r.stderr)")
        }
    }

    /// Header values given on the command line go out verbatim, so line breaks are refused.
    @Test func headerOptionsWithLineBreaksAreRefused() throws {
        for option in ["--cache-control", "--cors"] {
            let r = try TegulaBinary.run(["serve", "/nonexistent", option, "public\r\nSet-Cookie: a=b", "--port", "0"])
            #expect(r.status != 0 && r.stderr.contains("\(option) must not hold control characters"), "\(r.stderr)")
        }
    }
}
