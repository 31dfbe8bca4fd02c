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
        let (width, height) = (Int(MatchFixtures.referenceWidth), Int(MatchFixtures.referenceHeight))
        return AllmapsAnnotation.text(
            name: "sheet", service: service, type: "ImageService3", width: width, height: height,
            gcps: AllmapsAnnotation.mercatorGrid(width: width, height: height, left: 400_000, top: 7_100_000, resolution: 100))
    }

    /// `scripts/match_error.py`'s RMS and worst error of `points` against the re-scan's truth.
    static func oracle(_ points: String, _ rescan: MatchFixtures.Rescan) throws -> (rms: Double, worst: Double) {
        let h = rescan.truth.m
        let out = try ProgramRun.output(
            try LocalHTTPServer.venv("python3"),
            [
                PackageRoot.path("scripts/match_error.py"), points, "--truth", h.map { "\($0)" }.joined(separator: ","),
                "--size", "\(rescan.width)", "\(rescan.height)",
            ])
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

    @Test func eachMapsReportAndTheSheetIndexGiveTheVerdictTheScoreThePointsAndTheCoverage() throws {
        let folder = try TemporaryFolder.make("match-pipeline-report")
        _ = try MatchFixtures.reference(in: folder)
        let rescan = try MatchFixtures.rescan(.init(name: "rescan", degrees: 10, scale: 0.7, crop: 0.6, jpegQuality: 70), in: folder)
        let file = try MatchPipelineTests.againstTheReference("report", maps: [("rescan", rescan.path, "out/rescan")], zooms: 7...7, in: folder)
        let run = try ProgramRun.run(try BuiltTegula.path(), ["run", file])
        #expect(run.status == 0, "\(run.stderr)")
        let work = folder.appendingPathComponent(".tegula/report")
        let points = try String(contentsOf: work.appendingPathComponent("rescan/match.points"), encoding: .utf8)
        let written = points.split(separator: "\n").filter { $0.contains("score=") }
        let scores = written.compactMap { line in line.range(of: "score=").flatMap { Double(line[$0.upperBound...]) } }
        let mean = scores.reduce(0, +) / Double(max(1, scores.count))
        // The share of the scan the reference covers, by the truth: the scan pixels (a 200 × 200
        // grid of their centres) it takes onto the sheet.
        var on = 0
        for i in 0..<200 {
            for j in 0..<200 {
                let p = rescan.truth.apply(
                    PixelPoint(x: (Double(i) + 0.5) * Double(rescan.width) / 200, y: (Double(j) + 0.5) * Double(rescan.height) / 200))
                if (0...MatchFixtures.referenceWidth).contains(p.x) && (0...MatchFixtures.referenceHeight).contains(p.y) { on += 1 }
            }
        }
        let coverage = Double(on) / 40_000
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: work.appendingPathComponent("rescan/report.json"))) as? [String: Any])
        #expect(report["transform"] as? String == "projective", "the fit's report keeps its own keys: \(report.keys.sorted())")
        let match = try #require(report["match"] as? [String: Any], "report.json has no match: \(report.keys.sorted())")
        #expect(match["matched"] as? Bool == true, "\(match)")
        #expect(match["points"] as? Int == written.count && (12...40).contains(written.count), "\(match), \(written.count) points written")
        #expect(abs((match["score"] as? Double ?? 0) - mean) < 1e-3, "\(match): the points' mean score is \(mean)")
        #expect(abs((match["coverage"] as? Double ?? 0) - coverage) < 0.02, "\(match): the truth covers \(coverage)")

        let index = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: work.appendingPathComponent("index.geojson"))) as? [String: Any])
        let features = (index["features"] as? [[String: Any]] ?? []).reduce(into: [String: [String: Any]]()) { all, f in
            all[f["id"] as? String ?? ""] = f["properties"] as? [String: Any]
        }
        let matched = try #require(features["rescan"])
        #expect(matched["matched"] as? Bool == true && matched["match_points"] as? Int == written.count, "\(matched)")
        #expect(abs((matched["match_score"] as? Double ?? 0) - mean) < 1e-3, "\(matched)")
        #expect(abs((matched["match_coverage"] as? Double ?? 0) - coverage) < 0.02, "\(matched): the truth covers \(coverage)")
        let unrelated = try #require(features["unrelated"])
        #expect(unrelated["matched"] as? Bool == false && unrelated["match_points"] as? Int == 0, "\(unrelated)")
        #expect(unrelated["quality"] as? String == "skipped", "\(unrelated)")
        let record = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: work.appendingPathComponent("unrelated/match.json"))) as? [String: Any])
        #expect(record["matched"] as? Bool == false && !(record["why"] as? String ?? "").isEmpty, "\(record)")
        // Its report, with no fit to report, is the match alone.
        let unmatched =
            try JSONSerialization.jsonObject(with: Data(contentsOf: work.appendingPathComponent("unrelated/report.json"))) as? [String: Any]
        let said = unmatched?["match"] as? [String: Any]
        #expect(unmatched?.count == 1 && said?["matched"] as? Bool == false && said?["points"] as? Int == 0, "\(unmatched ?? [:])")
        #expect(said?["why"] as? String == record["why"] as? String, "\(unmatched ?? [:])")
    }
}
