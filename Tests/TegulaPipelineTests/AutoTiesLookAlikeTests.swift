import Foundation
import TegulaGeometry
import TegulaTestSupport
import Testing

@testable import TegulaPipeline

/// `ties: auto` must not tie two sheets it cannot tie surely. On 4 × 1 series made by
/// scripts/make-series (as ``AutoTiesTests``: 4-px GCP errors, 24-px overlaps), r1c3's side of
/// its overlap with r1c2 (its 48 left columns) is changed with numpy: moved up by 30 px, a
/// look-alike, so the overlap still matches, at a correlation of 0.99, about 27 px from where
/// both sheets' fits put it (right ties lie 5–8 px from it; the finder alone tied it, 9 ties 30 px
/// from the truth); or blank below its top 80 rows, the top 30 moved right by 3 px, so that the
/// ties bunch at that end of the overlap and one of them lies off (``AutoTies/Influence``).
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

    /// Paints rows `flat` on of the first 48 columns of every band of the GeoTIFF `path` their
    /// mean, then moves rows 0 to `top` of those columns right by `columns` (left when negative),
    /// in place (GDAL's Python bindings, numpy).
    static let bunch = """
        import sys
        import numpy as np
        from osgeo import gdal
        path, flat, top, columns = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
        ds = gdal.Open(path, gdal.GA_Update)
        for i in range(1, ds.RasterCount + 1):
            band = ds.GetRasterBand(i)
            a = band.ReadAsArray()
            a[flat:, :48] = int(a[flat:, :48].mean())
            a[:top, :48] = np.roll(a[:top, :48], columns, axis=1)
            band.WriteArray(a)
        ds = None
        """

    /// The found ties' seams after the fit and distances from the truth (``AutoTiesTests/seamOracle``),
    /// one row per found tie.
    static func found(_ folder: String, _ pipeline: Pipeline) throws -> (after: [Double], truth: [Double]) {
        let out = try ProgramRun.output(PackageRoot.path(".venv/bin/python3"), ["-c", AutoTiesTests.seamOracle, folder, pipeline.workFolder])
        let oracle = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: [[String: Any]]], "\(out)")
        let ties = try #require(oracle["found"])
        #expect(ties.count == pipeline.spec.ties.count && !ties.isEmpty)
        return (ties.map { $0["after"] as! Double }, ties.map { $0["truth"] as! Double })
    }

    /// How far leaving one tie out moves the least-squares similarity through a pair's ties over
    /// the overlap of the masks (argv: the ties `[[xa, ya, xb, yb]]`, the masks `[[x, y]]`), by
    /// numpy's least squares and OGR's polygon intersection.
    static let moveOracle = """
        import json, sys
        import numpy as np
        from osgeo import ogr
        ties, a, b = (json.loads(v) for v in sys.argv[1:4])
        def fit(t):
            m = np.array([r for xa, ya, _, _ in t for r in ([xa, -ya, 1, 0], [ya, xa, 0, 1])])
            return np.linalg.lstsq(m, np.array([v for _, _, xb, yb in t for v in (xb, yb)]), rcond=None)[0]
        def apply(s, pts):
            p, q, tx, ty = s
            return np.column_stack([p * pts[:, 0] - q * pts[:, 1] + tx, q * pts[:, 0] + p * pts[:, 1] + ty])
        ring = lambda pts: ogr.CreateGeometryFromWkt("POLYGON((" + ",".join(f"{x!r} {y!r}" for x, y in pts + pts[:1]) + "))")
        s = fit(ties)
        m = np.array([[s[0], -s[1]], [s[1], s[0]]])
        back = [list(np.linalg.solve(m, [x - s[2], y - s[3]])) for x, y in b]
        overlap = ring(a).Intersection(ring(back))  # kept: the ring below is a reference into it
        corners = np.array(overlap.GetGeometryRef(0).GetPoints())[:, :2]
        print(max(np.max(np.hypot(*(apply(s, corners) - apply(fit(ties[:i] + ties[i + 1:]), corners)).T)) for i in range(len(ties))))
        """

    @Test func oneTieLeftOutMovesThePairOverItsOverlapAsNumpyAndOGRMeasureItAndBunchedTiesWithOneOffAreRefused() throws {
        // Two 204-px sheets, the second 160 px to the right: their overlap is the strip x 170–194 of the first.
        let mask = [(10.0, 10.0), (194, 10), (194, 194), (10, 194)].map { PixelPoint(x: $0.0, y: $0.1) }
        // Ties (x, y on the first sheet; the twin 160 px left, moved by (dx, dy)): four bunched at the
        // top of the strip, the first 3 px off; nine along the whole strip, off by at most 0.15 px.
        typealias Tie = (x: Double, y: Double, dx: Double, dy: Double)
        let bunched: [Tie] = [(182, 22, 3, 0), (182, 35, 0, 0), (182, 48, 0, 0), (182, 61, 0, 0)]
        let noise: [(Double, Double)] = [(0.15, -0.1), (-0.1, 0.15), (0.05, 0.05)]
        let spread: [Tie] = (0..<9).map { k in (k % 2 == 0 ? 178 : 186, 20 + 20 * Double(k), noise[k % 3].0, noise[k % 3].1) }
        for (ties, refused) in [(bunched, true), (spread, false)] {
            let pairs: [(from: PixelPoint, to: PixelPoint)] = ties.map { t in
                (from: PixelPoint(x: t.x, y: t.y), to: PixelPoint(x: t.x - 160 + t.dx, y: t.y + t.dy))
            }
            let json = { (v: Any) in String(decoding: try! JSONSerialization.data(withJSONObject: v), as: UTF8.self) }
            let out = try ProgramRun.output(
                PackageRoot.path(".venv/bin/python3"),
                [
                    "-c", Self.moveOracle, json(pairs.map { [$0.from.x, $0.from.y, $0.to.x, $0.to.y] }),
                    json(mask.map { [$0.x, $0.y] }), json(mask.map { [$0.x, $0.y] }),
                ])
            let oracle = try #require(Double(out.trimmingCharacters(in: .whitespacesAndNewlines)), "\(out)")
            let move = AutoTies.Influence.largestMove(pairs, maskA: mask, maskB: mask)
            print(
                String(format: "%@ ties: one left out moves the pair by %.4f px (numpy and OGR: %.4f)", refused ? "bunched" : "spread", move, oracle))
            #expect(abs(move - oracle) <= 1e-6 * max(1, oracle))
            #expect((AutoTies.Influence.refusal(pairs, maskA: mask, maskB: mask) != nil) == refused && (move > 1) == refused, "\(move)")
        }
    }

    @Test func aPairWhoseTiesBunchAtOneEndOfTheOverlapWithOneOfThemOffIsRefusedNamedAndGetsNoTies() throws {
        let (folder, file) = try AutoTiesTests.series("autoties-bunched", cols: 4, rows: 1)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = try ProgramRun.output(PackageRoot.path(".venv/bin/python3"), ["-c", Self.bunch, folder + "/scans/r1c3.tif", "80", "30", "3"])
        let log = LoggedLines()
        try AutoTiesTests.runner(file, RunOptions(stage: .georeference, jobs: 2), log: log).run()
        let pipeline = try Pipeline.load(path: file)
        let found = try #require(pipeline.foundTies)
        let refused = try #require(found.pairs.first { $0.mapA == "r1c2" && $0.mapB == "r1c3" })
        #expect(!refused.matched && refused.ties == 0 && refused.why?.contains("the ties cannot fix the pair") == true, "\(refused)")
        let named = log.all.filter { $0.hasPrefix("ties: auto:") }
        #expect(named.count == 1 && named[0].contains("'r1c2' and 'r1c3' overlap but do not match") && !named[0].contains("\n"), "\(named)")
        #expect(Set(pipeline.spec.ties.map { "\($0.mapA) \($0.mapB)" }) == ["r1c1 r1c2", "r1c3 r1c4"])

        let (after, truth) = try Self.found(folder, pipeline)
        print(
            String(
                format: "bunched: %d found ties, seams after max %.4f px, from the truth max %.3f px; %@", after.count, after.max()!, truth.max()!,
                refused.why ?? "r1c2-r1c3 tied"))
        #expect(after.max()! <= 0.5 && truth.max()! <= 1, "seams \(after), from the truth \(truth)")
    }

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

        let (after, truth) = try Self.found(folder, pipeline)
        print(
            String(format: "look-alike: %d found ties, seams after max %.4f px, from the truth max %.3f px", after.count, after.max()!, truth.max()!))
        #expect(after.max()! <= 0.5 && truth.max()! <= 1, "seams \(after), from the truth \(truth)")
    }
}
