import Foundation
import TegulaTestSupport
import Testing

/// `tegula serve` as an IIIF Image API 3.0 server, checked by the official validator (PyPI
/// `iiif-validator`, `iiif-validate.py`) on its own test image, and a plain scan served as IIIF alone.
@Suite(.timeLimit(.minutes(20)))
struct IIIFServeCLITests {
    /// The identifier the validator asks for; the test image's file is named after it.
    static let validatorID = "67352ccc-d1b0-11e1-89ae-279075081939"

    /// The validator's test image: 1000 × 1000 px of 10 × 10 squares of 100 px, the square at
    /// column i, row k coloured `ValidationInfo().colorInfo[i][k]` (the table is the package's
    /// own), written as a GeoTIFF with no georeference by GDAL's Python bindings.
    static func writeValidatorImage(_ path: String) throws {
        try ProgramRun.output(
            "python3",
            [
                "-c",
                """
                import sys
                import numpy
                from osgeo import gdal
                from iiif_validator.validator import ValidationInfo
                colours = ValidationInfo().colorInfo
                ds = gdal.GetDriverByName('GTiff').Create(sys.argv[1], 1000, 1000, 3, gdal.GDT_Byte)
                for b in range(3):
                    a = numpy.zeros((1000, 1000), numpy.uint8)
                    for i in range(10):
                        for k in range(10):
                            a[k * 100:(k + 1) * 100, i * 100:(i + 1) * 100] = colours[i][k][b]
                    ds.GetRasterBand(b + 1).WriteArray(a)
                ds = None
                """, path,
            ])
    }

    /// Item 4's Done-when: `iiif-validate.py --version=3.0 --level 1` passes against `tegula serve`
    /// of the validator's image, a scan with no georeference served as IIIF alone. The validator
    /// exits non-zero when any test fails and prints each test's result.
    @Test func theOfficialValidatorPassesAtLevelOneAgainstTegulaServe() throws {
        let dir = try TemporaryFolder.make("iiif-validator")
        defer { try? FileManager.default.removeItem(at: dir) }
        let image = dir.appendingPathComponent("\(Self.validatorID).tif").path
        try Self.writeValidatorImage(image)
        let server = try LocalHTTPServer.tegula(["serve", image])
        defer { server.stop() }
        #expect(server.output(contains: "serving \(Self.validatorID) as an IIIF image (1000 × 1000 px)"), "\(server.output)")
        let run = try ProgramRun.run(
            "iiif-validate.py",
            [
                "-s", "127.0.0.1:\(server.port)", "-p", "iiif", "-i", Self.validatorID,
                "--version=3.0", "--level", "1",
            ])
        let report = run.stdout + run.stderr
        #expect(run.status == 0, "the validator failed:\n\(report)")
        // iiif-validator 1.0.5 runs 24 tests at level 1 of 3.0 (iiif_testserver.py passes them all).
        #expect(report.contains("Done (24 tests, 0 failures)"), "\(report)")
        #expect(report.components(separatedBy: "\n").filter { $0.hasSuffix(" PASS") }.count == 24, "\(report)")
    }

    /// A plain scan's service answers a window with the scan's own pixels: a PNG of the square at
    /// column 3, row 7 of the validator's image is that square's colour everywhere; the info.json
    /// names the service by the Host the client used, and a JSON-LD client gets JSON-LD.
    @Test func aPlainScanIsServedAsIIIFAloneWithItsOwnPixels() throws {
        let dir = try TemporaryFolder.make("iiif-plain")
        defer { try? FileManager.default.removeItem(at: dir) }
        let image = dir.appendingPathComponent("squares.tif").path
        try Self.writeValidatorImage(image)
        let server = try LocalHTTPServer.tegula(["serve", image])
        defer { server.stop() }
        let info = try server.get("/iiif/squares/info.json")
        #expect(info.status == 200)
        #expect(info.headers["access-control-allow-origin"] == "*")
        let json = try JSONSerialization.jsonObject(with: info.body) as? [String: Any]
        #expect(json?["id"] as? String == "http://127.0.0.1:\(server.port)/iiif/squares")
        #expect(json?["width"] as? Int == 1000 && json?["height"] as? Int == 1000)
        #expect(json?["profile"] as? String == "level1")
        let png = dir.appendingPathComponent("square.png").path
        let r = try server.get("/iiif/squares/300,700,100,100/50,/0/default.png")
        #expect(r.status == 200 && r.headers["content-type"] == "image/png")
        #expect(r.headers["link"]?.contains("<http://iiif.io/api/image/3/level1.json>;rel=\"profile\"") == true)
        try r.body.write(to: URL(fileURLWithPath: png))
        // gdalinfo -stats of the 50 × 50 answer: every band's minimum and maximum is the colour.
        let stats = try ProgramRun.output("gdalinfo", ["-json", "-stats", png])
        let bands = ((try JSONSerialization.jsonObject(with: Data(stats.utf8)) as? [String: Any])?["bands"] as? [[String: Any]]) ?? []
        let expected = [85, 29, 156]  // ValidationInfo().colorInfo[3][7]
        #expect(bands.count == 3)
        for (b, want) in zip(bands, expected) {
            #expect(b["minimum"] as? Double == Double(want) && b["maximum"] as? Double == Double(want), "\(b)")
        }
        #expect(try server.get("/iiif/squares/0,0,100,100/200,/0/default.png").status == 400, "upscaling without ^")
        #expect(try server.get("/iiif/nothing/info.json").status == 404)
        #expect(try server.get("/squares.json").status == 404, "a plain scan has no tileset")
    }
}
