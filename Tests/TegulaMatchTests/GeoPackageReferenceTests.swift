import Foundation
import TegulaGeometry
import TegulaTestSupport
import Testing

/// A GeoPackage as the reference of `tegula match` and `tegula edit` (issue 44), run as a user runs
/// them: the 1689 sheet cut by `tegula tile -o reference.gpkg` (zooms 5–10, as the MBTiles of
/// ``MatchPipelineReferenceTests``), a re-scan made by gdalwarp through a known homography. A
/// GeoPackage is read as a georeferenced image through GDAL's GPKG driver (its last zoom, the
/// lower ones as overviews; its geotransform and CRS), so it may be in any tile matrix set. The
/// oracles: `scripts/match_error.py` (numpy's homography through the written points against the
/// truth) and, in the editor, the truth at each snapped pixel.
@Suite(.timeLimit(.minutes(20))) struct GeoPackageReferenceTests {
    @Test func aRescanMatchedAgainstAGeoPackageFitsTheTruthAndTheEditorSnapsToIt() throws {
        let folder = try TemporaryFolder.make("match-gpkg")
        defer { try? FileManager.default.removeItem(at: folder) }
        let reference = try MatchFixtures.reference(in: folder)
        let gpkg = try MatchFixtures.tileset(of: reference, "reference.gpkg", in: folder)
        let rescan = try MatchFixtures.rescan(.init(name: "rescan", degrees: 25, scale: 1.3, crop: 0.8, jpegQuality: 60), in: folder)
        let points = folder.appendingPathComponent("proposed.points").path
        let run = try ProgramRun.run(try BuiltTegula.path(), ["match", rescan.path, "--reference", gpkg, "-o", points])
        try #require(run.status == 0, "\(run.stderr)")
        let (rms, worst) = try MatchPipelineReferenceTests.oracle(points, rescan)
        #expect(rms <= 1.0 && worst <= 1.5, "RMS \(rms), worst \(worst) scan px against the truth")

        let editor = try LocalHTTPServer.tegula(
            [
                "edit", rescan.path, "-o", folder.appendingPathComponent("edited.points").path, "--reference", gpkg,
                "--basemap", "http://127.0.0.1:9/{z}/{x}/{y}.png", "--render-threads", "2",
            ])
        defer { editor.stop() }
        #expect(try editor.get("/reference.json").status == 200)
        for (x, y) in [(0.5, 0.5), (0.3, 0.4), (0.7, 0.6)] {
            let pixel = PixelPoint(x: x * Double(rescan.width), y: y * Double(rescan.height))
            let answer = try editor.get("/api/snap?x=\(pixel.x)&y=\(pixel.y)")
            let snap = try #require(try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])
            let ground = try #require(snap["ground"] as? [Double], "\(snap)")
            let metres = WebMercator.project(Coordinate(longitude: ground[0], latitude: ground[1]))
            let found = MatchFixtures.referencePixel(GroundPoint(x: metres.x, y: metres.y)), truth = rescan.truth.apply(pixel)
            #expect(hypot(found.x - truth.x, found.y - truth.y) < 1, "\(pixel): snapped to \(found), truth \(truth); \(snap)")
        }
    }
}
