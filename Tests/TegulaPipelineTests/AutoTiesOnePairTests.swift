import Foundation
import TegulaGeometry
import TegulaMatch
import TegulaTestSupport
import Testing

@testable import TegulaPipeline

/// `ties: auto`'s check of a sheet without GCPs tied by one pair alone (``AutoTies/OnePair``), on
/// a 2 × 1 series made by scripts/make-series (as ``AutoTiePlacementTests``: zoom 4, exact GCPs on
/// r1c1 alone): r1c2 is tied along its one shared edge. The oracles are the generator's
/// `truth.json`: GDAL's GCP transformer over the run's georef.vrt
/// (``TiePlacementTests/positionOracle``), and numpy's least-squares similarity through a pair's
/// ties against where the truth puts r1c2's corners on r1c1.
@Suite(.serialized, .timeLimit(.minutes(20))) struct AutoTiesOnePairTests {
    /// The largest distance, in r1c1's pixels, between where the least-squares similarity through
    /// a ties file's ties (r1c2's pixel to r1c1's) puts r1c2's corners and where the truth does
    /// (argv: the series folder, the ties file, r1c2's width and height).
    static let cornerOracle = """
        import csv, json, sys
        import numpy as np
        sheets = json.load(open(sys.argv[1] + "/truth.json"))["sheets"]
        a, b = sheets["r1c1"], sheets["r1c2"]
        rows = [r for r in csv.DictReader(open(sys.argv[2])) if r["map_b"] == "r1c2"]
        m, v = [], []
        for r in rows:
            x, y = float(r["x_b"]), float(r["y_b"])
            m += [[x, -y, 1, 0], [y, x, 0, 1]]
            v += [float(r["x_a"]), float(r["y_a"])]
        p = np.linalg.lstsq(np.array(m), np.array(v), rcond=None)[0]
        w, h = float(sys.argv[3]), float(sys.argv[4])
        worst = 0.0
        for x, y in [(0, 0), (w, 0), (w, h), (0, h)]:
            gx, gy = b["x0"] + x * b["res"], b["y0"] - y * b["res"]
            want = np.array([(gx - a["x0"]) / a["res"], (a["y0"] - gy) / a["res"]])
            got = np.array([p[0] * x - p[1] * y + p[2], p[1] * x + p[0] * y + p[3]])
            worst = max(worst, float(np.hypot(*(got - want))))
        print(json.dumps(worst))
        """

    /// The oracle's far-corner error of the ties of `finding`.
    static func cornerError(_ folder: String, _ finding: AutoTies.Finding, size: (Int, Int)) throws -> Double {
        let file = folder + "/one-pair-ties.csv"
        try finding.csv.write(toFile: file, atomically: true, encoding: .utf8)
        let out = try ProgramRun.output(PackageRoot.path(".venv/bin/python3"), ["-c", cornerOracle, folder, file, "\(size.0)", "\(size.1)"])
        return try #require(Double(out.trimmingCharacters(in: .whitespacesAndNewlines)), "\(out)")
    }

    @Test func aSheetTiedAlongOneEdgeIsPlacedWhenItsStripFixesItAndListedUnplacedNotPlacedWrongWhenItDoesNot() throws {
        let (folder, file) = try AutoTiePlacementTests.series("autoties-onepair", cols: 2, rows: 1, withGCPs: ["r1c1"])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let pipeline = try Pipeline.load(path: file)
        let found = try #require(pipeline.foundTies)
        // The whole edge tied: the check keeps r1c2, and the joint fit places it within 2 px.
        #expect(found.unplaced == nil && found.pairs.filter(\.matched).count == 1, "\(found.unplaced ?? []) \(found.pairs)")
        try AutoTiePlacementTests.georeference(pipeline)
        let (lo, hi) = (TiePlacementTests.collar, TiePlacementTests.collar + TiePlacementTests.cell + 2 * TiePlacementTests.overlap)
        let out = try ProgramRun.output(
            PackageRoot.path(".venv/bin/python3"),
            ["-c", TiePlacementTests.positionOracle, folder + "/truth.json", pipeline.workFolder, "\(lo)", "\(hi)"])
        let errors = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Double], "\(out)")
        #expect(try #require(errors["r1c2"]) <= 2, "\(errors)")

        let loose = try #require(try pipeline.spec.maps.compactMap { try AutoTies.Loose(map: $0, pipeline: pipeline) }.first)
        let masks = ["r1c2": loose.mask], size = (loose.width, loose.height)
        let whole = try AutoTiesLoopsTests.finding(pipeline.workFolder, found, moved: [], by: (0, 0))
        let ties = try #require(whole.points.first)
        try #require(ties.count >= 6)
        let wholeMove = AutoTies.OnePair.move(ties.map { (from: $0.reference, to: $0.scan) }, corners: loose.mask)

        // The strip cut to its three ties at one end, one of them 1 px off on r1c1 (as a tie the
        // finder keeps may be): the similarity through them puts r1c2's far edge over 2 px from
        // the truth, and the check lists r1c2 unplaced, its pair without ties, instead.
        var cut = whole
        let end = ties.sorted { $0.scan.y < $1.scan.y }.prefix(3)
        cut.points = [
            end.enumerated().map { i, p in
                ProposedPoint(scan: PixelPoint(x: p.scan.x + (i == 0 ? 1 : 0), y: p.scan.y), reference: p.reference, score: p.score)
            }
        ]
        cut.pairs[0].ties = 3
        let wrong = try Self.cornerError(folder, cut, size: size)
        let right = try Self.cornerError(folder, whole, size: size)
        let unplaced = cut.refuseOnePairSheetsNotFixed(masks)
        var kept = whole
        let keptUnplaced = kept.refuseOnePairSheetsNotFixed(masks)
        print(
            String(
                format: "one pair: whole strip (%d ties) moves r1c2's far edge %.3f px leaving one out, corners %.2f px from the truth; "
                    + "cut to 3, one 1 px off: corners %.2f px from the truth; %@",
                ties.count, wholeMove, right, wrong, unplaced.first?.why ?? "kept"))
        #expect(wrong > 2 && right <= 2, "the cut ties must place r1c2 wrong, the whole strip right: \(wrong), \(right)")
        #expect(keptUnplaced.isEmpty && kept.pairs[0].matched, "\(keptUnplaced)")
        #expect(unplaced.map(\.map) == ["r1c2"], "\(unplaced)")
        let why = unplaced.first?.why ?? ""
        #expect(why.contains("one edge only") && why.contains("'r1c1'") && why.contains(" px"), "\(why)")
        #expect(!cut.pairs[0].matched && cut.pairs[0].why?.contains("'r1c2' is tied by this pair alone") == true, "\(cut.pairs)")
        #expect(!cut.csv.contains("r1c2"), "\(cut.csv)")
        // Named on stderr in one line, as a sheet matching did not place.
        let record = AutoTies(key: found.key, pairs: cut.pairs, unplaced: unplaced)
        let line = record.unmatched().first { $0.hasPrefix("ties: auto: sheet 'r1c2'") } ?? ""
        #expect(line.hasSuffix(": not placed") && !line.contains("\n"), "\(record.unmatched())")
    }
}
