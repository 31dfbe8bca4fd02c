import Foundation
import TegulaTestSupport
import Testing

/// `tegula info` on the real scan, a GeoTIFF and a VRT with GCPs made by GDAL's own tools.
@Suite(.timeLimit(.minutes(20)))
struct InfoCLITests {

    @Test func describesTheJPEGScan() throws {
        let r = try TegulaBinary.run(["info", Schagen1689.scan])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("2700 x 1350"))
        #expect(r.stdout.contains("driver: JPEG"))
        let j = try TegulaBinary.run(["info", Schagen1689.scan, "--json"])
        let obj = try JSONSerialization.jsonObject(with: Data(j.stdout.utf8)) as? [String: Any]
        #expect(obj?["width"] as? Int == 2700)
        #expect((obj?["bands"] as? [Any])?.count == 3)
    }

    @Test func describesAGeoTIFFAndAGCPVRT() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tegula-info-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let tif = dir.appendingPathComponent("geo.tif").path
        let vrt = dir.appendingPathComponent("gcps.vrt").path
        var r = try ProgramRun.run(
            "gdal_translate",
            [
                "-q", "-of", "GTiff", "-outsize", "10%", "10%",
                "-a_srs", "EPSG:4326", "-a_ullr", "-180", "90", "180", "-90",
                Schagen1689.scan, tif,
            ])
        #expect(r.status == 0, "\(r.stderr)")
        r = try ProgramRun.run(
            "gdal_translate",
            [
                "-q", "-of", "VRT", "-a_srs", "EPSG:4326",
                "-gcp", "0", "0", "-180", "90", "-gcp", "2700", "0", "180", "90",
                "-gcp", "0", "1350", "-180", "-90", Schagen1689.scan, vrt,
            ])
        #expect(r.status == 0, "\(r.stderr)")
        let a = try TegulaBinary.run(["info", tif, "--json"])
        let ja = try JSONSerialization.jsonObject(with: Data(a.stdout.utf8)) as? [String: Any]
        #expect(ja?["srs"] as? String == "EPSG:4326")
        #expect((ja?["geoTransform"] as? [Double])?.first == -180)
        #expect(ja?["width"] as? Int == 270)
        let b = try TegulaBinary.run(["info", vrt])
        #expect(b.status == 0, "\(b.stderr)")
        #expect(b.stdout.contains("gcps: 3 in EPSG:4326"))
        #expect(b.stdout.contains("pixel 2700.0 line 0.0 -> 180.0 90.0"))
    }

    @Test func missingOrCorruptFileIsOneLineError() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tegula-info-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let bad = dir.appendingPathComponent("bad.tif")
        try Data("II*\0garbage".utf8).write(to: bad)
        let cut = dir.appendingPathComponent("cut.jpg")
        let full = try Data(contentsOf: URL(fileURLWithPath: Schagen1689.scan))
        try full.prefix(50_000).write(to: cut)
        for path in [dir.appendingPathComponent("missing.tif").path, bad.path, cut.path] {
            let r = try TegulaBinary.run(["info", path])
            #expect(r.status != 0, "\(path)")
            #expect(r.stdout.isEmpty)
            let lines = r.stderr.split(separator: "\n")
            #expect(lines.count == 1, "\(r.stderr)")
            #expect(r.stderr.contains(URL(fileURLWithPath: path).lastPathComponent))
        }
    }
}
