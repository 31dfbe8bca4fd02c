import Foundation
import TegulaGeometry
import TegulaGeoreference
import TegulaTestSupport
import Testing

@testable import TegulaMatch

/// References that live on a server (issue 42 item 2), each on loopback: a bare XYZ URL template
/// of the 1689 sheet's tiles served by Python's `http.server`, with the area the scan shows; and
/// the sheet as an IIIF image (`iiif_testserver.py`, Image API 3.0 level 1) with its Georeference
/// Annotation, a file and a URL. The oracle is the transform the re-scan was made with.
@Suite(.timeLimit(.minutes(20))) struct RemoteReferenceTests {
    /// Every written point of `path` against the truth (``expectTruth(_:_:_:)``), for other suites.
    static func expectPoints(_ path: String, _ rescan: MatchFixtures.Rescan, _ what: String) throws {
        try expectTruth(path, rescan, what)
    }

    /// Longitude and latitude of an EPSG:3857 position, by the spherical formulas.
    static func lonLat(_ g: GroundPoint) -> (lon: Double, lat: Double) {
        let r = 6_378_137.0
        return (g.x / r * 180 / .pi, atan(sinh(g.y / r)) * 180 / .pi)
    }

    /// The reference pixel of a written ground position: EPSG:3857 as is, longitude and latitude
    /// projected back by the spherical formulas.
    static func referencePixel(_ g: GroundPoint, crs: String) -> PixelPoint {
        guard crs == "EPSG:4326" else { return MatchFixtures.referencePixel(g) }
        let r = 6_378_137.0
        return MatchFixtures.referencePixel(GroundPoint(x: r * g.x * .pi / 180, y: r * log(tan(.pi / 4 + g.y * .pi / 360))))
    }

    /// Every written point's ground taken back to the scan by the truth: how far from its scan
    /// pixel, RMS at most 0.4 scan pixel and each within 1 (issue 42's bounds for the fit).
    static func expectTruth(_ path: String, _ rescan: MatchFixtures.Rescan, _ what: String) throws {
        let set = try GCPReader.read(path: path)
        #expect((12...40).contains(set.gcps.count), "\(what): \(set.gcps.count) points")
        let back = try #require(rescan.truth.inverse)
        let errors = set.gcps.map { g in
            let p = back.apply(referencePixel(g.ground, crs: set.crs.label))
            return hypot(p.x - g.pixel.x, p.y - g.pixel.y)
        }
        let rms = (errors.map { $0 * $0 }.reduce(0, +) / Double(max(1, errors.count))).squareRoot()
        #expect(rms <= 0.4, "\(what): RMS \(rms) scan px")
        #expect((errors.max() ?? 0) <= 1, "\(what): worst \(errors.max() ?? 0) scan px")
    }

    @Test func aBareXYZTemplateIsReadOverTheBoundsGivenAndRefusedWithoutThemAsBoundsAreWithAnotherReference() throws {
        let folder = try TemporaryFolder.make("match-xyz")
        let reference = try MatchFixtures.reference(in: folder)
        _ = try MatchFixtures.tileset(of: reference, "tiles", in: folder)
        let rescan = try MatchFixtures.rescan(.init(name: "rescan", degrees: -20, scale: 1.3, jpegQuality: 75), in: folder)
        let server = try LocalHTTPServer.python(serving: folder)
        defer { server.stop() }
        let template = server.base + "/tiles/{z}/{x}/{y}.png"
        let tegula = try BuiltTegula.path()
        // The sheet's own area: its corners in degrees.
        let (west, north) = Self.lonLat(GroundPoint(x: 400_000, y: 7_100_000)), (east, south) = Self.lonLat(GroundPoint(x: 670_000, y: 6_965_000))
        let out = folder.appendingPathComponent("xyz.points").path
        let run = try ProgramRun.run(
            tegula,
            [
                "match", rescan.path, "--reference", template,
                "--reference-bounds", "\(west),\(south),\(east),\(north)", "-o", out,
            ])
        #expect(run.status == 0, "\(run.stderr)")
        // The scan's pixels ask for zoom 11; the template's deepest tile there is zoom 10.
        #expect(run.stderr.contains("reference: zoom 10 of the tileset"), "\(run.stderr)")
        try Self.expectTruth(out, rescan, "xyz")

        let none = folder.appendingPathComponent("none.points").path
        let refused = try ProgramRun.run(tegula, ["match", rescan.path, "--reference", template, "-o", none])
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("give the area the scan shows (--reference-bounds WEST,SOUTH,EAST,NORTH in degrees)"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: none))

        // Bounds with a reference that carries its own georeference are refused, not ignored.
        let unused = try ProgramRun.run(
            tegula, ["match", rescan.path, "--reference", reference, "--reference-bounds", "\(west),\(south),\(east),\(north)", "-o", none])
        #expect(unused.status == 1 && unused.stderr.split(separator: "\n").count == 1, "\(unused.stderr)")
        #expect(unused.stderr.contains("--reference-bounds is only for a bare XYZ URL template"), "\(unused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: none))
    }

    @Test func anIIIFImageWithItsAnnotationIsAReferenceAsAFileAndAsAURL() throws {
        let folder = try TemporaryFolder.make("match-iiif")
        let images = folder.appendingPathComponent("images"), www = folder.appendingPathComponent("www")
        for dir in [images, www] { try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true) }
        try FileManager.default.copyItem(atPath: Schagen1689.scan, toPath: images.appendingPathComponent("sheet.jpg").path)
        let rescan = try MatchFixtures.rescan(.init(name: "rescan", degrees: 15, scale: 0.8, crop: 0.8, jpegQuality: 60), in: folder)
        let iiif = try LocalHTTPServer.iiifTestServer(images: images)
        defer { iiif.stop() }
        let files = try LocalHTTPServer.python(serving: www)
        defer { files.stop() }
        // The sheet's georeference as an annotation: a 5 × 5 grid of its pixels at the reference's
        // ground (100 m pixels in EPSG:3857), in longitude and latitude.
        let gcps = (0...4).flatMap { i in
            (0...4).map { j -> AllmapsAnnotation.Point in
                let x = MatchFixtures.referenceWidth * Double(i) / 4, y = MatchFixtures.referenceHeight * Double(j) / 4
                let g = Self.lonLat(GroundPoint(x: 400_000 + 100 * x, y: 7_100_000 - 100 * y))
                return AllmapsAnnotation.Point(x: x, y: y, longitude: g.lon, latitude: g.lat)
            }
        }
        let annotation = AllmapsAnnotation.text(
            name: "sheet", service: iiif.base + "/3.0_pil/sheet", type: "ImageService3",
            width: Int(MatchFixtures.referenceWidth), height: Int(MatchFixtures.referenceHeight), gcps: gcps)
        let file = folder.appendingPathComponent("sheet.json").path
        try annotation.write(toFile: file, atomically: true, encoding: .utf8)
        try annotation.write(to: www.appendingPathComponent("sheet.json"), atomically: true, encoding: .utf8)
        let tegula = try BuiltTegula.path()
        for (what, reference) in [("file", file), ("url", files.base + "/sheet.json")] {
            let out = folder.appendingPathComponent("\(what).points").path
            let run = try ProgramRun.run(
                tegula,
                [
                    "match", rescan.path, "--reference", reference, "-o", out,
                    "--iiif-cache", folder.appendingPathComponent("cache-\(what)").path,
                ])
            #expect(run.status == 0, "\(what): \(run.stderr)")
            try Self.expectTruth(out, rescan, what)
        }
    }
}
