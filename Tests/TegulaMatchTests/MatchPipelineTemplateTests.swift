import Foundation
import TegulaGeometry
import TegulaTestSupport
import Testing

/// `georeference: {match: {reference: URL, reference_bounds: [w, s, e, n]}}`: a bare XYZ URL
/// template in a pipeline, read over the bounds given (as `tegula match --reference-bounds`), run
/// by the built `tegula run` against the 1689 sheet's tile folder served on loopback by Python's
/// `http.server`. The oracle is `scripts/match_error.py` (``MatchPipelineReferenceTests/oracle(_:_:)``).
@Suite(.timeLimit(.minutes(20))) struct MatchPipelineTemplateTests {
    @Test func aBareTemplateWithReferenceBoundsIsMatchedAndItsFitHoldsTheTruth() throws {
        let folder = try TemporaryFolder.make("match-pipeline-xyz")
        let reference = try MatchFixtures.reference(in: folder)
        _ = try MatchFixtures.tileset(of: reference, "tiles", in: folder)
        let rescan = try MatchFixtures.rescan(.init(name: "rescan", degrees: -20, scale: 1.3, jpegQuality: 75), in: folder)
        let server = try LocalHTTPServer.python(serving: folder)
        defer { server.stop() }
        // The sheet's own area: its corners in degrees.
        let (west, north) = RemoteReferenceTests.lonLat(GroundPoint(x: 400_000, y: 7_100_000))
        let (east, south) = RemoteReferenceTests.lonLat(GroundPoint(x: 670_000, y: 6_965_000))
        let file = folder.appendingPathComponent("xyz.yml").path
        try """
        version: 1
        maps:
          - name: rescan
            input: \(rescan.path)
            output: out/rescan
            tile: {min_zoom: 8, max_zoom: 8}
            georeference:
              match: {reference: '\(server.base)/tiles/{z}/{x}/{y}.png', reference_bounds: [\(west), \(south), \(east), \(north)]}
              transform: projective

        """.write(toFile: file, atomically: true, encoding: .utf8)
        let run = try ProgramRun.run(try BuiltTegula.path(), ["run", file])
        #expect(run.status == 0, "\(run.stderr)")
        let work = folder.appendingPathComponent(".tegula/xyz/rescan")
        let record = try JSONSerialization.jsonObject(with: Data(contentsOf: work.appendingPathComponent("match.json"))) as? [String: Any]
        #expect(record?["matched"] as? Bool == true, "\(record ?? [:])")
        let (rms, worst) = try MatchPipelineReferenceTests.oracle(work.appendingPathComponent("match.points").path, rescan)
        print("match-pipeline xyz: RMS \(rms) worst \(worst) scan px, \(record?["points"] ?? 0) points")
        #expect(rms <= 1.0, "RMS \(rms) scan px against the truth (a tileset at half the scan's resolution)")
        #expect(worst <= 1.5, "worst \(worst) scan px against the truth")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out/rescan/8").path), "no tiles")
    }

    @Test func aTemplateWithoutBoundsAndBoundsWithAnotherReferenceAreRefusedAtLoadNamingTheKey() throws {
        let folder = try TemporaryFolder.make("match-pipeline-xyz-bad")
        let tegula = try BuiltTegula.path()
        // Nothing answers there: the refusal comes before any request.
        let template = "http://127.0.0.1:9/{z}/{x}/{y}.png"
        let bounds = "reference_bounds: [4.5, 52.2, 5.1, 52.6]"
        let cases = [
            ("{match: '\(template)'}", "maps[0].georeference.match", "give reference_bounds: [west, south, east, north]"),
            ("{match: {reference: \(Schagen1689.scan), \(bounds)}}", "maps[0].georeference.match.reference_bounds", "only for a bare XYZ"),
            (
                "{match: {reference: 'http://127.0.0.1:9/tiles.json', \(bounds)}}", "maps[0].georeference.match.reference_bounds",
                "only for a bare XYZ"
            ),
        ]
        try MatchPipelineTests.expectRefused(cases, in: folder, by: tegula, namingTheFile: true)
    }
}
