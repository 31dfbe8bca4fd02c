import Foundation
import TegulaTestSupport
import Testing

/// `tegula serve https://…/x.pmtiles` end to end: a PMTiles made by `tegula tile`, put on nginx
/// and on moto's S3, served by range requests with the bytes of the local tiles; the file
/// replaced on nginx is noticed (new ETags, new `?v=` in TileJSON, the new zooms served).
@Suite(.timeLimit(.minutes(20)))
struct RemoteServeCLITests {
    @Test func servesAPMTilesFileFromNginxAndS3ByRangeRequests() throws {
        let dir = try TemporaryFolder.make("cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try BlueMarble.georeferenced(in: dir)
        let folder = dir.appendingPathComponent("bm").path, folder3 = dir.appendingPathComponent("bm3").path
        let a = dir.appendingPathComponent("a.pmtiles"), b = dir.appendingPathComponent("b.pmtiles")
        for (out, zoom) in [(folder, "0-2"), (folder3, "0-3"), (a.path, "0-2"), (b.path, "0-3")] {
            let r = try TegulaBinary.run(["tile", input, "-o", out, "--zoom", zoom, "--quiet"])
            #expect(r.status == 0, "\(r.stderr)")
        }
        let nginx = try LocalHTTPServer.nginx()
        defer { nginx.stop() }
        try nginx.publish(a, as: "bm.pmtiles")
        let s3 = try LocalHTTPServer.moto()
        defer { s3.stop() }
        let s3URL = try s3.s3Put(a, bucket: "maps", key: "scans/bm-s3.pmtiles")

        let server = try LocalHTTPServer.tegula(["serve", nginx.base + "/bm.pmtiles", s3URL])
        defer { server.stop() }
        #expect(server.output.contains("serving by range requests bm (png, z0–2)"), "\(server.output)")
        var etags: [String: String] = [:]
        for z in 0...2 {
            for x in 0..<(1 << z) {
                for y in 0..<(1 << z) {
                    let expected = FileManager.default.contents(atPath: "\(folder)/\(z)/\(x)/\(y).png")
                    for id in ["bm", "bm-s3"] {
                        let r = try server.get("/\(id)/\(z)/\(x)/\(y).png")
                        if let expected {
                            #expect(r.status == 200 && r.body == expected && r.headers["content-type"] == "image/png", "\(id) \(z)/\(x)/\(y)")
                        } else {
                            #expect(r.status == 404, "\(id) \(z)/\(x)/\(y) is not in the file")
                        }
                        if id == "bm" { etags["\(z)/\(x)/\(y)"] = r.headers["etag"] }
                    }
                }
            }
        }
        let tag = try #require(etags["0/0/0"])
        #expect(try server.get("/bm/0/0/0.png", headers: ["If-None-Match": tag]).status == 304)
        let before = try tileJSON(server, "bm")
        #expect(before.maxzoom == 2 && before.tiles.contains("/bm/{z}/{x}/{y}.png?v="))
        #expect(try server.get("/bm/3/0/0.png").status == 404, "zoom 3 is outside the first file")

        // Replaced on the server: the next tile read notices, and everything after is the new
        // file's (zoom 0 of a z0–3 pyramid is made from zoom 3, so its bytes are z0–3's).
        try nginx.publish(b, as: "bm.pmtiles")
        let again = try server.get("/bm/0/0/0.png")
        #expect(again.status == 200 && again.body == FileManager.default.contents(atPath: "\(folder3)/0/0/0.png"))
        #expect(again.headers["etag"] != nil && again.headers["etag"] != tag, "a new version, a new ETag")
        let after = try tileJSON(server, "bm")
        #expect(after.maxzoom == 3 && after.tiles != before.tiles, "\(after)")
        #expect(try server.get("/bm/0/0/0.png", headers: ["If-None-Match": tag]).status == 200, "the old ETag no longer matches")
        for (z, x, y) in [(1, 0, 0), (1, 1, 0), (2, 1, 1), (3, 2, 2), (3, 3, 3)] {
            let r = try server.get("/bm/\(z)/\(x)/\(y).png")
            let expected = FileManager.default.contents(atPath: "\(folder3)/\(z)/\(x)/\(y).png")
            #expect(expected == nil ? r.status == 404 : (r.status == 200 && r.body == expected), "\(z)/\(x)/\(y) after")
        }
    }

    /// A URL that cannot be served stops `tegula serve` at start-up with one line naming it.
    @Test func aMissingRemoteFileIsRefusedAtStartUp() throws {
        let nginx = try LocalHTTPServer.nginx()
        defer { nginx.stop() }
        let url = nginx.base + "/missing.pmtiles"
        let r = try TegulaBinary.run(["serve", url, "--port", "0"])
        #expect(r.status != 0)
        #expect(r.stderr == "tegula: \(url): not found (HTTP 404); check the URL (path-style S3: http://HOST/BUCKET/KEY)\n", "\(r.stderr)")
    }

    private func tileJSON(_ server: LocalHTTPServer, _ id: String) throws -> (maxzoom: Int, tiles: String) {
        let body = try server.get("/\(id).json").body
        let json = try JSONSerialization.jsonObject(with: body) as? [String: Any]
        return (json?["maxzoom"] as? Int ?? -1, (json?["tiles"] as? [String])?.first ?? "")
    }
}
