import Foundation
import TegulaCluster
import TegulaGeoreference
import TegulaSupport
import TegulaTestSupport
import Testing

@testable import TegulaPipeline

/// Sheets without GCPs placed by their ties (`gcps: none`), on a 4 × 4 series from
/// scripts/make-series with exact GCPs on r2c2 alone (the centre of its 3 × 3 block: one sheet
/// in nine) and hand ties written from the generator's truth with a little noise: 18 per
/// neighbour pair, spread over their overlap. The positions are checked by numpy and GDAL's GCP
/// transformer on the written `georef.vrt`s against `truth.json`.
@Suite(.serialized, .timeLimit(.minutes(20))) struct TiePlacementTests {
    /// Cells of 160 px, 12 px of overlap, 10 px of collar (``MadeSeries``).
    static let cell = 160.0, overlap = 12.0, collar = 10.0
    /// Each tie pixel moved by up to this many scan pixels in x and in y (uniform).
    static let tieNoise = 0.1

    /// The series with GCPs on `withGCPs` only (`gcps: none` on the rest), exact or each moved
    /// `gcpError` scan pixels (scripts/make-series at `madeSeed`), and the ties of
    /// ``ties(truth:random:)`` in `ties.csv`.
    static func series(
        _ label: String, withGCPs: Set<String> = ["r2c2"], gcpError: Double = 0, madeSeed: Int = 1, seed: UInt64 = 43, shared: Double = 0
    )
        throws -> (folder: String, file: String)
    {
        let folder = try TemporaryFolder.make(label).path
        let on = withGCPs.isEmpty ? "none" : withGCPs.sorted().joined(separator: ",")
        let file = try MadeSeries.make(in: folder, gcpError: gcpError, extra: ["--ties-file", "--seed", "\(madeSeed)", "--gcps-on", on])
        var random = SeededRandom(seed: seed)
        let truth = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/truth.json"))) as! [String: Any]
        let csv =
            ["map_a,x_a,y_a,map_b,x_b,y_b"]
            + ties(truth: truth, random: &random, shared: shared).map { "\($0.0),\($0.1),\($0.2),\($0.3),\($0.4),\($0.5)" }
        try (csv.joined(separator: "\n") + "\n").write(toFile: folder + "/ties.csv", atomically: true, encoding: .utf8)
        return (folder, file)
    }

    /// 18 ties per neighbour pair (right and lower neighbour), as a grid over their overlap would
    /// give: two rows across the 24-px overlap band, nine places along it, placed on the first
    /// sheet and carried to the second by the truth's affine maps; each pixel then moved by up to
    /// ``tieNoise``. With `shared` over 0 the ties of a pair also err together, as found ties
    /// over flat sea do: each pair's second ends moved by one normal shift of `shared` pixels
    /// per coordinate plus one normal slope of `shared` pixels per coordinate over the strip's
    /// length, times the tie's place along it (from its centre).
    static func ties(truth: [String: Any], random: inout SeededRandom, shared: Double = 0) -> [(String, Double, Double, String, Double, Double)] {
        let sheets = truth["sheets"] as! [String: [String: Any]]
        func place(_ name: String) -> (Double, Double, Double) {
            (sheets[name]!["x0"] as! Double, sheets[name]!["y0"] as! Double, sheets[name]!["res"] as! Double)
        }
        var out: [(String, Double, Double, String, Double, Double)] = []
        let edge = collar + overlap + cell  // the shared cell edge on the first sheet's scan
        for r in 1...4 {
            for c in 1...4 {
                let a = "r\(r)c\(c)"
                for (b, across) in [("r\(r)c\(c + 1)", true), ("r\(r + 1)c\(c)", false)] where sheets[b] != nil {
                    func normal() -> Double {
                        guard shared > 0 else { return 0 }
                        let u = Double.random(in: Double.ulpOfOne..<1, using: &random), v = Double.random(in: 0..<1, using: &random)
                        return shared * (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
                    }
                    let (cx, cy, sx, sy) = (normal(), normal(), normal(), normal())
                    for u in [edge - 11, edge + 11] {
                        for v in stride(from: collar + 4, through: collar + 172, by: 21) {
                            let (xa, ya) = across ? (u, v) : (v, u)
                            let (x0, y0, res) = place(a), (x1, y1, _) = place(b)
                            let gx = x0 + xa * res, gy = y0 - ya * res
                            func noisy(_ v: Double) -> Double { v + Double.random(in: -tieNoise...tieNoise, using: &random) }
                            let t = (v - (collar + 88)) / 168  // along the strip, from its centre, in strip lengths
                            out.append((a, noisy(xa), noisy(ya), b, noisy((gx - x1) / res + cx + sx * t), noisy((y1 - gy) / res + cy + sy * t)))
                        }
                    }
                }
            }
        }
        return out
    }

    /// numpy and GDAL against the truth: each sheet's `georef.vrt` (its GCPs and tie pins) through
    /// GDAL's GCP transformer (polynomial order 1, as the sheets are fitted), at a 9 × 9 grid over
    /// the map inside the neatline, against truth.json's affine map; the worst distance in scan
    /// pixels, which are pixels of the max zoom. A sheet with no `georef.vrt` (a scan that keeps
    /// its own georeference) is read through the geotransform of `scans/NAME.tif` beside the truth
    /// file. Prints {sheet: px}.
    static let positionOracle = """
        import json, os, sys
        import numpy as np
        from osgeo import gdal
        gdal.UseExceptions()
        truth = json.load(open(sys.argv[1]))["sheets"]
        scans = os.path.join(os.path.dirname(sys.argv[1]), "scans")
        lo, hi = float(sys.argv[3]), float(sys.argv[4])
        out = {}
        for name, t in truth.items():
            vrt = f"{sys.argv[2]}/{name}/georef.vrt"
            if os.path.exists(vrt):
                tr = gdal.Transformer(gdal.Open(vrt), None, ["METHOD=GCP_POLYNOMIAL", "MAX_GCP_ORDER=1"])
            else:
                tr = gdal.Transformer(gdal.Open(f"{scans}/{name}.tif"), None, ["METHOD=GEOTRANSFORM"])
            xs, ys = np.meshgrid(np.linspace(lo, hi, 9), np.linspace(lo, hi, 9))
            pts = np.column_stack([xs.ravel(), ys.ravel()])
            got = np.array([tr.TransformPoint(0, float(x), float(y))[1][:2] for x, y in pts])
            want = np.column_stack([t["x0"] + pts[:, 0] * t["res"], t["y0"] - pts[:, 1] * t["res"]])
            out[name] = float(np.max(np.hypot(*(got - want).T)) / t["res"])
        print(json.dumps(out))
        """

    @Test func withExactGCPsOnOneSheetInNineEverySheetOfAFourByFourSeriesIsPlacedWithinTwoPixels() throws {
        let (folder, file) = try Self.series("one-in-nine")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let pipeline = try Pipeline.load(path: file)
        #expect(pipeline.series.tied.count == 16)
        let log = LoggedLines()
        try PipelineRunner(pipeline: pipeline, options: RunOptions(stage: .georeference, jobs: 2), log: { log.append($0) }, progress: nil).run()
        // Each sheet's line counts its own GCPs and its tie pins apart, and says who chose its
        // transform (before: r1c1 "fitted polynomial1 (given) … from 36 GCPs", all of them pins).
        let lines = log.all.filter { $0.contains("; fitted ") }
        // And one line says what a sheet placed by its ties has to show for it (the walk of a
        // new user found the index's figures for such sheets easy to read as their accuracy).
        let placedLine = "series: 15 sheets placed by their ties alone, up to 4 ties from a sheet with GCPs: their rmse_m and loo_m say how well "
        #expect(log.all.contains { $0.hasPrefix(placedLine) && $0.contains("; place_se_m says that (up to ") }, "\(log.all.prefix(4))")
        #expect(lines.contains { $0.hasPrefix("r2c2: ") && $0.contains("(the series' joint fit) in EPSG:3857 from 6 GCPs and ") }, "\(lines)")
        #expect(
            lines.contains { $0.hasPrefix("r1c1: ") && $0.contains("fitted polynomial1 (the series' joint fit) in EPSG:3857 from 36 tie pins,") },
            "\(lines)")
        #expect(
            lines.filter { !$0.hasPrefix("r2c2: ") }.allSatisfy { $0.contains(" tie pins, leave-one-out") && !$0.contains(" GCPs and ") }, "\(lines)")
        let out = try ProgramRun.output(
            PackageRoot.path(".venv/bin/python3"),
            [
                "-c", Self.positionOracle, folder + "/truth.json", pipeline.workFolder, "\(Self.collar)",
                "\(Self.collar + Self.cell + 2 * Self.overlap)",
            ])
        let errors = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Double], "\(out)")
        let index =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: pipeline.workFolder + "/index.geojson"))) as! [String: Any]
        let figures = Dictionary(
            uniqueKeysWithValues: (index["features"] as! [[String: Any]]).map { ($0["id"] as! String, $0["properties"] as! [String: Any]) })
        try #require(errors.count == 16 && figures.count == 16)
        var byHops: [Int: Double] = [:]
        for r in 1...4 {
            for c in 1...4 {
                let name = "r\(r)c\(c)", f = figures[name]!
                let hops = abs(r - 2) + abs(c - 2)  // every tie joins two sheets side by side
                let error = try #require(errors[name])
                byHops[hops] = max(byHops[hops] ?? 0, error)
                if hops == 0 {
                    #expect(f["georeference"] as? String == "gcps" && f["hops"] == nil, "\(name): \(f)")
                } else {
                    #expect(f["georeference"] as? String == "ties" && f["hops"] as? Int == hops && f["gcps"] as? Int == 0, "\(name): \(f)")
                    #expect(f["loo_m"] as? Double != nil && f["rmse_m"] as? Double != nil, "\(name): \(f)")
                }
                #expect(error <= 2, "\(name), \(hops) ties from r2c2, is \(error) px from its true place")
                #expect(error <= Self.bound(hops: hops), "\(name): \(error) px at \(hops) hops, past the documented bound")
            }
        }
        print("worst positional error by hops from r2c2 (zoom-7 px): \(byHops.sorted { $0.key < $1.key })")
        // The gate holds a sheet placed by its ties to its figures as any other: below every
        // such sheet's leave-one-out over its ties, each of them fails.
        let placed = Set(figures.filter { $0.value["georeference"] as? String == "ties" }.keys)
        let least = try #require(placed.compactMap { figures[$0]!["loo_m"] as? Double }.min())
        try MadeSeries.append("quality: {max_loo_m: \(least / 2), on_fail: stop}\n", to: file)
        let failed = Set(try Pipeline.load(path: file).series.failures.map(\.name))
        #expect(placed.count == 15 && failed.isSuperset(of: placed), "failed: \(failed.sorted())")
    }

    /// The documented growth (docs/pipelines-and-collections.md): from the error of the sheets
    /// with GCPs (here exact, pulled by their ties to under 0.05 px), at most 6 ε px more per tie
    /// between the sheet and a sheet with GCPs, ε the largest error of a tie pixel.
    static func bound(hops: Int) -> Double { 0.05 + 6 * tieNoise * Double(hops) }

    @Test func aShardedRunOfASeriesPlacedByItsTiesIsByteIdenticalToTheSingleRun() throws {
        let (folder, file) = try Self.series("placed-shards")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try ShardedRun.expectSameAsSingle(file, folder: folder)
    }

    @Test func aGroupWithoutGCPsIsRefusedInOneLineNamingItsSheets() throws {
        let (folder, file) = try Self.series("no-gcps", withGCPs: [])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let e = #expect(throws: PipelineError.self) { try Pipeline.load(path: file) }
        let line = e?.description ?? ""
        #expect(!line.contains("\n"))
        #expect(line.contains("'r1c1', 'r1c2'") && line.contains("none of these tied sheets has GCPs of its own"), "\(line)")
        #expect(line.contains("give at least one of them GCPs"), "\(line)")
    }
}
