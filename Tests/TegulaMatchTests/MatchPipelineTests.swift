import Foundation
import TegulaGeometry
import TegulaGeoreference
import TegulaTestSupport
import Testing

@testable import TegulaMatch

/// `georeference: {match: REF}` in a pipeline, run by the built `tegula run` as a user runs it:
/// two re-scans of the 1689 sheet, made by known transforms (``MatchFixtures/rescan(_:in:)``),
/// georeferenced unattended against its GeoTIFF, and an unrelated map (Blue Marble) refused and
/// left out by the quality gate. The oracle is the transform each re-scan was made with.
@Suite(.timeLimit(.minutes(20))) struct MatchPipelineTests {
    /// A pipeline of the three maps, the reference given once under `map_defaults:`.
    static func pipeline(in folder: URL) throws -> (file: String, a: MatchFixtures.Rescan, b: MatchFixtures.Rescan) {
        _ = try MatchFixtures.reference(in: folder)
        let a = try MatchFixtures.rescan(.init(name: "rescan-a", degrees: -20, scale: 0.8, jpegQuality: 40), in: folder)
        let b = try MatchFixtures.rescan(.init(name: "rescan-b", degrees: 7, scale: 0.6, crop: 0.7, gamma: 1.4), in: folder)
        let file = try againstTheReference("rescans", maps: [("rescan-a", a.path, "out/a"), ("rescan-b", b.path, "out/b")], zooms: 8...9, in: folder)
        return (file, a, b)
    }

    /// The pipeline file `NAME.yml` in `folder`: the reference GeoTIFF there (`reference.tif`,
    /// ``MatchFixtures/reference(in:)``) given once under `map_defaults:` with projective fits and
    /// tiles at `zooms`, the quality gate leaving out a map that does not fit, and `maps` (name,
    /// scan, output) followed by an unrelated one (Blue Marble, output `out/unrelated`).
    static func againstTheReference(
        _ name: String, maps: [(name: String, input: String, output: String)], zooms: ClosedRange<Int>, in folder: URL
    ) throws -> String {
        let file = folder.appendingPathComponent("\(name).yml").path
        let lines = (maps + [("unrelated", BlueMarble.path, "out/unrelated")]).map { "  - {name: \($0.0), input: \($0.1), output: \($0.2)}\n" }
        try """
        version: 1
        map_defaults:
          georeference: {match: reference.tif, transform: projective}
          tile: {min_zoom: \(zooms.lowerBound), max_zoom: \(zooms.upperBound)}
        quality: {on_fail: skip}
        maps:
        \(lines.joined())
        """.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    /// The sheet index's features by name.
    static func index(_ folder: URL) throws -> [String: [String: Any]] {
        let data = try Data(contentsOf: folder.appendingPathComponent(".tegula/rescans/index.geojson"))
        let features = (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["features"] as? [[String: Any]] ?? []
        return Dictionary(uniqueKeysWithValues: features.compactMap { f in (f["id"] as? String).map { ($0, f) } })
    }

    /// Where a fitted footprint vertex (longitude, latitude) lies on the scan, by the truth:
    /// EPSG:3857 by the spherical formulas, the reference's pixel, the transform's inverse.
    static func scanPixel(lon: Double, lat: Double, truth: Homography) -> PixelPoint {
        let r = 6_378_137.0
        let ground = GroundPoint(x: r * lon * .pi / 180, y: r * log(tan(.pi / 4 + lat * .pi / 360)))
        return truth.inverse!.apply(MatchFixtures.referencePixel(ground))
    }

    @Test func rescansAreGeoreferencedUnattendedAndAnUnrelatedMapIsLeftOut() throws {
        let folder = try TemporaryFolder.make("match-pipeline")
        let (file, a, b) = try Self.pipeline(in: folder)
        let run = try ProgramRun.run(try BuiltTegula.path(), ["run", file])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("quality: sheet 'unrelated' left out: cannot be fitted"), "\(run.stderr)")
        #expect(run.stderr.contains("no match"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out/unrelated").path))
        let index = try Self.index(folder)
        for (name, rescan) in [("rescan-a", a), ("rescan-b", b)] {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out/\(name.dropFirst(7))/9").path), "\(name) has no tiles")
            let properties = try #require(index[name]?["properties"] as? [String: Any], "\(name) is not in the index")
            #expect(properties["matched"] as? Bool == true, "\(properties)")
            #expect((12...40).contains(properties["match_points"] as? Int ?? 0), "\(properties)")
            #expect((0.6...1).contains(properties["match_score"] as? Double ?? 0), "\(properties)")
            #expect(properties["quality"] as? String == "ok")
            // The matched points' ground, taken back to the scan by the truth, is their scan pixel.
            let points = folder.appendingPathComponent(".tegula/rescans/\(name)/match.points").path
            #expect(try GCPReader.read(path: points).gcps.count == properties["match_points"] as? Int)
            try RemoteReferenceTests.expectPoints(points, rescan, name)
            // The fit's footprint, the scan's border through the fitted transform, lies on the
            // scan's border by the truth, within 1.5 scan pixels all round.
            let ring = try #require((index[name]?["geometry"] as? [String: Any])?["coordinates"] as? [[[Double]]]).first ?? []
            #expect(ring.count >= 4)
            for v in ring {
                let p = Self.scanPixel(lon: v[0], lat: v[1], truth: rescan.truth)
                let off = min(abs(p.x), abs(p.x - Double(rescan.width)), abs(p.y), abs(p.y - Double(rescan.height)))
                #expect(off < 1.5, "\(name): footprint vertex \(v) is \(off) scan px off the border (at \(p))")
            }
        }
        let unrelated = try #require(index["unrelated"]?["properties"] as? [String: Any])
        #expect(unrelated["matched"] as? Bool == false, "\(unrelated)")
        #expect(unrelated["match_points"] as? Int == 0)
        #expect(unrelated["quality"] as? String == "skipped")
    }

    @Test func badMatchSectionsAreRefusedInOneLineNamingTheKey() throws {
        let folder = try TemporaryFolder.make("match-pipeline-bad")
        let tegula = try BuiltTegula.path()
        let cases = [
            ("{match: \(Schagen1689.scan), gcps: \(Schagen1689.points)}", "maps[0].georeference.match", "give either gcps or match"),
            ("{match: \(Schagen1689.scan), gcp_srs: EPSG:4326}", "maps[0].georeference.gcp_srs", "matched GCPs are in the reference's CRS"),
            ("{match: nowhere.tif}", "maps[0].georeference.match", "match reference \(folder.path)/nowhere.tif does not exist"),
        ]
        try Self.expectRefused(cases, in: folder, by: tegula)
    }

    /// Each georeference `section` of `cases`, as the one map of a pipeline file in `folder` run
    /// with `--dry-run`, exits 1 with one line on stderr naming its `key` and holding its `words`
    /// (and the pipeline file's path, `namingTheFile`), and makes no work folder.
    static func expectRefused(
        _ cases: [(String, String, String)], in folder: URL, by tegula: String, namingTheFile: Bool = false
    ) throws {
        for (i, (section, key, words)) in cases.enumerated() {
            let file = folder.appendingPathComponent("bad\(i).yml").path
            try "version: 1\nmaps:\n  - {name: a, input: \(Schagen1689.scan), output: out/a, georeference: \(section)}\n"
                .write(toFile: file, atomically: true, encoding: .utf8)
            let run = try ProgramRun.run(tegula, ["run", file, "--dry-run"])
            #expect(run.status == 1, "\(section): \(run.stderr)")
            let lines = run.stderr.split(separator: "\n")
            #expect(
                lines.count == 1 && lines[0].contains(key) && lines[0].contains(words) && (!namingTheFile || lines[0].contains(file)),
                "\(section): \(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(".tegula").path))
        }
    }

    @Test func theStageHashCoversTheReferencesBytes() throws {
        let folder = try TemporaryFolder.make("match-pipeline-hash")
        let (file, a, _) = try Self.pipeline(in: folder)
        let tegula = try BuiltTegula.path()
        try ProgramRun.output(tegula, ["run", file])
        let again = try ProgramRun.run(tegula, ["run", file])
        #expect(again.stderr.contains("rescan-a: georeference skipped (unchanged)"), "\(again.stderr)")
        // The same picture placed 1 km east: every matched point's ground moves with it.
        let reference = folder.appendingPathComponent("reference.tif").path
        try ProgramRun.output(
            "gdal_translate",
            [
                "-q", "-a_srs", "EPSG:3857", "-a_ullr", "401000", "7100000", "671000", "6965000",
                Schagen1689.scan, reference + ".moved.tif",
            ])
        try FileManager.default.removeItem(atPath: reference)
        try FileManager.default.moveItem(atPath: reference + ".moved.tif", toPath: reference)
        let moved = try ProgramRun.run(tegula, ["run", file])
        #expect(moved.status == 0, "\(moved.stderr)")
        #expect(!moved.stderr.contains("rescan-a: georeference skipped"), "\(moved.stderr)")
        let points = try GCPReader.read(path: folder.appendingPathComponent(".tegula/rescans/rescan-a/match.points").path)
        #expect(!points.gcps.isEmpty)
        // 10 reference pixels east of where the first run put each point (that run's ground, by the truth).
        for g in points.gcps {
            let truth = a.truth.apply(g.pixel), written = MatchFixtures.referencePixel(GroundPoint(x: g.ground.x - 1000, y: g.ground.y))
            #expect(hypot(truth.x - written.x, truth.y - written.y) < 1, "\(g.id): \(written), truth \(truth)")
        }
    }
}
