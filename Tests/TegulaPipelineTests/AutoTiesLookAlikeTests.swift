import Foundation
import TegulaTestSupport
import Testing

@testable import TegulaPipeline

/// `ties: auto` must not tie two sheets at a look-alike: on a 4 × 1 series made by
/// scripts/make-series (as ``AutoTiesTests``: 4-px GCP errors, 24-px overlaps), r1c3's side of
/// its overlap with r1c2 shows the right map moved up by 30 px (numpy rolls its 48 left columns),
/// so the overlap still matches, at a correlation of 0.99, about 27 px from where both sheets'
/// fits put it (right ties lie 5–8 px from it): the finder alone tied it, 9 ties 30 px from the truth.
@Suite(.serialized, .timeLimit(.minutes(20))) struct AutoTiesLookAlikeTests {
    /// Rolls the first `columns` columns of every band of the GeoTIFF `path` down by `rows` (up when
    /// negative), in place
    /// (GDAL's Python bindings, numpy).
    static let roll = """
        import sys
        import numpy as np
        from osgeo import gdal
        path, columns, rows = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
        ds = gdal.Open(path, gdal.GA_Update)
        for i in range(1, ds.RasterCount + 1):
            band = ds.GetRasterBand(i)
            a = band.ReadAsArray()
            a[:, :columns] = np.roll(a[:, :columns], rows, axis=0)
            band.WriteArray(a)
        ds = None
        """

    @Test func aPairWhoseOverlapMatchesFarFromWhereBothFitsPutItIsRefusedNamedAndGetsNoTiesWhileTheOthersCloseTheirSeams() throws {
        let (folder, file) = try AutoTiesTests.series("autoties-lookalike", cols: 4, rows: 1)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let python = PackageRoot.path(".venv/bin/python3")
        _ = try ProgramRun.output(python, ["-c", Self.roll, folder + "/scans/r1c3.tif", "48", "-30"])
        let log = LoggedLines()
        try AutoTiesTests.runner(file, RunOptions(stage: .georeference, jobs: 2), log: log).run()
        let pipeline = try Pipeline.load(path: file)
        let found = try #require(pipeline.foundTies)
        let refused = try #require(found.pairs.first { $0.mapA == "r1c2" && $0.mapB == "r1c3" })
        #expect(!refused.matched && refused.ties == 0 && refused.why?.contains("from where the sheets' fits put them") == true, "\(refused)")
        let named = log.all.filter { $0.hasPrefix("ties: auto:") }
        #expect(named.count == 1 && named[0].contains("'r1c2' and 'r1c3' overlap but do not match") && !named[0].contains("\n"), "\(named)")
        let csv = try String(contentsOfFile: AutoTies.csvPath(work: pipeline.workFolder), encoding: .utf8)
        #expect(!csv.split(separator: "\n").contains { $0.hasPrefix("r1c2,") && $0.contains(",r1c3,") }, "\(csv)")
        #expect(Set(pipeline.spec.ties.map { "\($0.mapA) \($0.mapB)" }) == ["r1c1 r1c2", "r1c3 r1c4"])

        let out = try ProgramRun.output(python, ["-c", AutoTiesTests.seamOracle, folder, pipeline.workFolder])
        let oracle = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: [[String: Any]]], "\(out)")
        let ties = try #require(oracle["found"])
        let after = ties.map { $0["after"] as! Double }, truth = ties.map { $0["truth"] as! Double }
        print(
            String(
                format: "look-alike: %d found ties, seams after max %.4f px, from the truth max %.3f px", ties.count, after.max() ?? -1,
                truth.max() ?? -1))
        #expect(ties.count == pipeline.spec.ties.count && !ties.isEmpty)
        #expect(after.max()! <= 0.5 && truth.max()! <= 1, "seams \(after), from the truth \(truth)")
    }
}
