import Foundation
import TegulaGeometry
import TegulaTestSupport
import Testing

/// `georeference: {match: REF}` in a pipeline with each kind of reference that is not a plain
/// GeoTIFF (issue 42 item 3), run by the built `tegula run` as a user runs it: the 1689 sheet cut
/// into a tile folder, an MBTiles and a PMTiles by `tegula tile` (zoom 10, about half the re-scan's
/// resolution), that folder's TileJSON served on loopback by Python's `http.server`, and the sheet
/// as an IIIF image (`iiif_testserver.py`) with a Georeference Annotation of a 5 × 5 grid of its
/// pixels. One re-scan, made by gdalwarp through a known homography, is matched against each.
/// The oracle is `scripts/match_error.py`: numpy's homography through each map's `match.points`
/// (their ground carried into EPSG:3857 by GDAL's osr) against the true one over the sheet.
@Suite(.timeLimit(.minutes(20))) struct MatchPipelineReferenceTests {
    /// The pipeline's maps: name, the reference as the file gives it, the fit's RMS bound in scan
    /// pixels (issue 42: 1 px against a tileset at half the scan's resolution, 0.4 px otherwise).
    static let maps = [
        ("folder", "tiles", 1.0), ("mbtiles", "reference.mbtiles", 1.0), ("pmtiles", "reference.pmtiles", 1.0),
        ("tilejson", "TILEJSON", 1.0), ("annotation", "sheet.json", 0.4),
    ]

    /// The annotation of the sheet served at `service`: a 5 × 5 grid of its pixels at the
    /// reference's ground (100 m pixels in EPSG:3857), in longitude and latitude.
    static func annotation(service: String) -> String {
        let gcps = (0...4).flatMap { i in
            (0...4).map { j -> AllmapsAnnotation.Point in
                let x = MatchFixtures.referenceWidth * Double(i) / 4, y = MatchFixtures.referenceHeight * Double(j) / 4
                let g = RemoteReferenceTests.lonLat(GroundPoint(x: 400_000 + 100 * x, y: 7_100_000 - 100 * y))
                return AllmapsAnnotation.Point(x: x, y: y, longitude: g.lon, latitude: g.lat)
            }
        }
        return AllmapsAnnotation.text(
            name: "sheet", service: service, type: "ImageService3",
            width: Int(MatchFixtures.referenceWidth), height: Int(MatchFixtures.referenceHeight), gcps: gcps)
    }

    /// `scripts/match_error.py`'s RMS and worst error of `points` against the re-scan's truth.
    static func oracle(_ points: String, _ rescan: MatchFixtures.Rescan) throws -> (rms: Double, worst: Double) {
        let h = rescan.truth.m
        let out = try ProgramRun.output(
            try LocalHTTPServer.venv("python3"),
            [PackageRoot.path("scripts/match_error.py"), points, "--truth"] + h.map { "\($0)" }
                + ["--size", "\(rescan.width)", "\(rescan.height)"])
        let words = out.split(separator: " ")
        let rms = try #require(Double(words.count > 1 ? String(words[1]) : ""), "match_error.py said \(out)")
        let worst = try #require(Double(words.count > 3 ? String(words[3].trimmingCharacters(in: .whitespacesAndNewlines)) : ""))
        return (rms, worst)
    }

    @Test func rescansMatchedAgainstTilesetsATileJSONAndAnAnnotationFitTheTruth() throws {
        let folder = try TemporaryFolder.make("match-pipeline-kinds")
        let reference = try MatchFixtures.reference(in: folder)
        for name in ["tiles", "reference.mbtiles", "reference.pmtiles"] { _ = try MatchFixtures.tileset(of: reference, name, in: folder) }
        let rescan = try MatchFixtures.rescan(.init(name: "rescan", degrees: 25, scale: 1.3, crop: 0.8, jpegQuality: 60), in: folder)
        let images = folder.appendingPathComponent("images")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Schagen1689.scan, toPath: images.appendingPathComponent("sheet.jpg").path)
        let iiif = try LocalHTTPServer.iiifTestServer(images: images)
        defer { iiif.stop() }
        try Self.annotation(service: iiif.base + "/3.0_pil/sheet").write(
            toFile: folder.appendingPathComponent("sheet.json").path, atomically: true, encoding: .utf8)
        let files = try LocalHTTPServer.python(serving: folder)
        defer { files.stop() }

        let file = folder.appendingPathComponent("kinds.yml").path
        var yaml = "version: 1\nmap_defaults:\n  tile: {min_zoom: 8, max_zoom: 8}\nmaps:\n"
        for (name, ref, _) in Self.maps {
            let ref = ref == "TILEJSON" ? files.base + "/tiles/tiles.json" : ref
            yaml += "  - {name: \(name), input: \(rescan.path), output: out/\(name), georeference: {match: '\(ref)', transform: projective}}\n"
        }
        try yaml.write(toFile: file, atomically: true, encoding: .utf8)
        let run = try ProgramRun.run(try BuiltTegula.path(), ["run", file])
        #expect(run.status == 0, "\(run.stderr)")

        for (name, _, bound) in Self.maps {
            let work = folder.appendingPathComponent(".tegula/kinds/\(name)")
            let record = try JSONSerialization.jsonObject(with: Data(contentsOf: work.appendingPathComponent("match.json"))) as? [String: Any]
            #expect(record?["matched"] as? Bool == true, "\(name): \(record ?? [:])")
            let (rms, worst) = try Self.oracle(work.appendingPathComponent("match.points").path, rescan)
            print("match-pipeline \(name): RMS \(rms) worst \(worst) scan px, \(record?["points"] ?? 0) points")
            #expect(rms <= bound, "\(name): RMS \(rms) scan px against the truth")
            #expect(worst <= 1.5, "\(name): worst \(worst) scan px against the truth")
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out/\(name)/8").path), "\(name) has no tiles")
        }
    }
}
