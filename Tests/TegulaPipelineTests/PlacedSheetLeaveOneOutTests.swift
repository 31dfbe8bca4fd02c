import Foundation
import TegulaSupport
import TegulaTestSupport
import Testing

@testable import TegulaPipeline

/// The figures the sheet index gives a sheet placed by its ties (`gcps: none`; issue 43 item 2)
/// against numpy's re-derivation from the run's inputs (scripts/placed_loo.py): the joint least
/// squares solved again from the ties CSV and the GCPs, then per placed sheet its ties' RMSE and
/// leave-one-out (each tie left out in turn, the sheet alone refitted to where the other sheets
/// put its other ties), in great-circle metres. On ``TiePlacementTests``' 4 × 4 series.
@Suite(.timeLimit(.minutes(20))) struct PlacedSheetLeaveOneOutTests {
    /// The largest relative difference allowed. numpy and Tegula agree to 1e-10 (rounding, the
    /// conjugate gradients' stopping point); the nearest other reading of the figure is 3–7 %
    /// away (the whole group refitted without the tie), a sphere of 6,378,137 m instead of the
    /// mean radius 0.11 %.
    static let tolerance = 1e-6

    @Test func theLeaveOneOutAndRMSEOfEverySheetPlacedByItsTiesAreNumpysFromTheTiesAndGCPs() throws {
        let (folder, file) = try TiePlacementTests.series("placed-loo")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let pipeline = try Pipeline.load(path: file)
        try PipelineRunner(pipeline: pipeline, options: RunOptions(stage: .georeference, jobs: 2), log: { _ in }, progress: nil).run()
        let out = try ProgramRun.output(
            PackageRoot.path(".venv/bin/python3"), [PackageRoot.path("scripts/placed_loo.py"), folder, pipeline.workFolder])
        let oracle = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: [String: Double]], "\(out)")
        let index =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: pipeline.workFolder + "/index.geojson"))) as! [String: Any]
        let placed = (index["features"] as! [[String: Any]]).map { $0["properties"] as! [String: Any] }
            .filter { $0["georeference"] as? String == "ties" }
        #expect(placed.count == 15 && Set(placed.map { $0["name"] as! String }) == Set(oracle.keys), "oracle: \(oracle.keys.sorted())")
        for f in placed {
            let name = f["name"] as! String, want = try #require(oracle[name])
            #expect(f["hops"] as? Int == want["hops"].map { Int($0) } && f["ties"] as? Int == want["ties"].map { Int($0) }, "\(name): \(f)")
            for key in ["loo_m", "rmse_m"] {
                let got = try #require(f[key] as? Double, "\(name): no \(key)"), expected = try #require(want[key])
                #expect(abs(got - expected) <= Self.tolerance * expected, "\(name): \(key) \(got), numpy \(expected)")
            }
        }
    }
}
