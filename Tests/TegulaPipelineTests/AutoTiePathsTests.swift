import Foundation
import TegulaCluster
import TegulaGeometry
import TegulaGeoreference
import TegulaMatch
import TegulaSupport
import TegulaTestSupport
import Testing

@testable import TegulaPipeline

/// The paths of `ties: auto` that place sheets without GCPs and that ``AutoTiePlacementTests``
/// does not take: a series whose sheet names make no grid (each waiting sheet matched against the
/// placed sheets nearest it in the map order, on every side in turn, non-neighbours included), and
/// a sharded run of a series with such sheets. Series made by scripts/make-series at zoom 4
/// (``AutoTiePlacementTests/series(_:cols:rows:withGCPs:extra:)``); positions checked by GDAL's GCP
/// transformer and numpy against the generator's `truth.json` (``TiePlacementTests/positionOracle``).
@Suite(.serialized, .timeLimit(.minutes(20))) struct AutoTiePathsTests {
    /// The series' sheets renamed `sheet-1`, `sheet-2`, … in the map order (row by row, as a
    /// series numbered sheet by sheet is): one number each, so the names make no grid. Returns
    /// the generator's name of each new name.
    static func numbered(_ folder: String) throws -> [String: String] {
        let list = folder + "/sheets.csv"
        var names: [String: String] = [:]
        let rows = try String(contentsOfFile: list, encoding: .utf8).split(separator: "\n").enumerated().map { i, row -> String in
            let f = row.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard i > 0 else { return String(row) }
            names["sheet-\(i)"] = f[0]
            return (["sheet-\(i)"] + f[1...]).joined(separator: ",")
        }
        try (rows.joined(separator: "\n") + "\n").write(toFile: list, atomically: true, encoding: .utf8)
        return names
    }

    /// `truth.json` with its sheets under their new names, for the position oracle.
    static func renamedTruth(_ folder: String, _ names: [String: String]) throws -> String {
        var truth = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/truth.json"))) as? [String: Any])
        let sheets = try #require(truth["sheets"] as? [String: Any])
        truth["sheets"] = Dictionary(uniqueKeysWithValues: names.map { ($0.key, sheets[$0.value]!) })
        let path = folder + "/truth-renamed.json"
        try JSONSerialization.data(withJSONObject: truth).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func sheetsWhoseNamesMakeNoGridArePlacedByTheSheetsNearestInTheMapOrderAndNoneByANonNeighbour() throws {
        // 3 × 2, exact GCPs on r2c2 (sheet-5) alone: sheet-1 and sheet-3 are first tried against
        // sheet-5 (a corner away), sheet-3 then against sheet-2 and sheet-4 (two columns off).
        let (folder, file) = try AutoTiePlacementTests.series("autoties-nogrid", cols: 3, rows: 2)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let names = try Self.numbered(folder)
        let pipeline = try Pipeline.load(path: file)
        try #require(AutoTies.GridPosition.of(pipeline.spec.maps.map(\.name)) == nil, "the names must make no grid")
        let found = try #require(pipeline.foundTies)
        #expect(found.unplaced == nil && pipeline.series.tied.count == 6, "\(found.unplaced ?? [])")
        // Every pair that matched is two sheets side by side in the generator's grid.
        let edges = AutoTiesTests.edgePairs(cols: 3, rows: 2)
        let matched = found.pairs.filter(\.matched).map { "\(names[$0.mapA]!) \(names[$0.mapB]!)" }
        #expect(Set(matched) == edges, "matched \(matched.sorted()), neighbours \(edges.sorted())")
        try AutoTiePlacementTests.georeference(pipeline)

        let (lo, hi) = (TiePlacementTests.collar, TiePlacementTests.collar + TiePlacementTests.cell + 2 * TiePlacementTests.overlap)
        let out = try ProgramRun.output(
            PackageRoot.path(".venv/bin/python3"),
            ["-c", TiePlacementTests.positionOracle, try Self.renamedTruth(folder, names), pipeline.workFolder, "\(lo)", "\(hi)"])
        let errors = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Double], "\(out)")
        try #require(errors.count == 6)
        print("ties: auto without a grid, worst position from the truth (zoom-4 px): \(errors.sorted { $0.key < $1.key })")
        for (name, error) in errors {
            #expect(error <= 0.5, "\(name) (\(names[name]!)) is \(error) px from its true place")
        }
    }

    @Test func anOverlapMissedFromAFirstPlacementSeveralPixelsOffIsTiedFromTheSheetRefittedThroughItsOtherTies() throws {
        // 3 × 1, every sheet fitted on exact GCPs; r1c2 then stands for a sheet placed by matching
        // whose first fit is 40 px off (over the finder's 32-px search): its overlap with r1c1
        // does not match from it, its overlap with r1c3 did from its true place.
        let (folder, file) = try AutoTiePlacementTests.series("autoties-retie", cols: 3, rows: 1, withGCPs: ["r1c1", "r1c2", "r1c3"])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let pipeline = try Pipeline.load(path: file)
        let sheets = Dictionary(
            uniqueKeysWithValues: try pipeline.spec.maps.compactMap { try AutoTies.Sheet(map: $0, pipeline: pipeline) }.map { ($0.name, $0) })
        let (left, middle, right) = (try #require(sheets["r1c1"]), try #require(sheets["r1c2"]), try #require(sheets["r1c3"]))
        var moved = middle.fit.gcps
        moved.gcps = moved.gcps.map { GCP(id: $0.id, pixel: PixelPoint(x: $0.pixel.x, y: $0.pixel.y + 40), ground: $0.ground) }
        let fit = try Georeferencer.fit(
            moved, imageWidth: middle.fit.imageWidth, imageHeight: middle.fit.imageHeight, options: FitOptions(transform: .helmert))
        let off = try #require(
            try AutoTies.Sheet(name: "r1c2", input: middle.input, fit: fit, mask: middle.mask, hash: middle.hash, scans: middle.scans))
        var found = AutoTies.Finding(finder: OverlapTieSettings(), order: ["r1c1": 0, "r1c2": 1, "r1c3": 2])
        try #require(try !found.tie(left, off) && found.pairs.count == 1, "from 40 px off the overlap must not match")
        try #require(try found.tie(middle, right))

        try AutoTies.retie([left, right, off], loose: ["r1c2"], found: &found)
        #expect(found.pairs.map { "\($0.mapA) \($0.mapB) \($0.matched)" } == ["r1c1 r1c2 true", "r1c2 r1c3 true"], "\(found.pairs)")
        // Each tie of r1c1–r1c2 where the generator's truth puts r1c1's pixel on r1c2.
        let truth =
            try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/truth.json"))) as? [String: Any])["sheets"]
            as? [String: [String: Any]]
        func place(_ name: String) throws -> (x0: Double, y0: Double, res: Double) {
            let t = try #require(truth?[name])
            return (t["x0"] as! Double, t["y0"] as! Double, t["res"] as! Double)
        }
        let (a, b) = (try place("r1c1"), try place("r1c2"))
        let ties = try #require(found.points.first)
        try #require(ties.count >= 3)
        for t in ties {
            let gx = a.x0 + t.scan.x * a.res, gy = a.y0 - t.scan.y * a.res
            let miss = hypot(t.reference.x - (gx - b.x0) / b.res, t.reference.y - (b.y0 - gy) / b.res)
            #expect(miss <= 0.5, "a tie at \(t.scan) on r1c1 lies \(miss) px from the truth on r1c2")
        }
    }

    @Test func aShardedRunOfASeriesWhoseSheetsWithoutGCPsTiesAutoPlacesIsByteIdenticalToTheSingleRun() throws {
        let (folder, file) = try AutoTiePlacementTests.series("autoties-placed-shards", cols: 3, rows: 2, withGCPs: ["r1c2"])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let index = try ShardedRun.expectSameAsSingle(file, folder: folder)
        // The run placed the five sheets without GCPs: the index gives each its hops from r1c2.
        let features = try #require(try JSONSerialization.jsonObject(with: index) as? [String: Any])["features"] as? [[String: Any]]
        let hops = Dictionary(
            uniqueKeysWithValues: try #require(features).map { ($0["id"] as! String, ($0["properties"] as! [String: Any])["hops"] as? Int) })
        #expect(hops == ["r1c1": 1, "r1c2": nil, "r1c3": 1, "r2c1": 2, "r2c2": 1, "r2c3": 2], "\(hops)")
    }
}
