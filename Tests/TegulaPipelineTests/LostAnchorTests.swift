import Foundation
import TegulaCluster
import TegulaSupport
import TegulaTestSupport
import Testing

@testable import TegulaPipeline

/// `quality: {on_fail: skip}` leaving out the only sheet with GCPs that places a group of sheets
/// without GCPs (`gcps: none`): those sheets lose what places them and are left out with it, each
/// named in one line. The 4 × 4 series of ``TiePlacementTests`` cut in two by its ties: the
/// top-left 2 × 2 block placed from r2c2 alone, the other twelve sheets from r3c3 alone.
@Suite(.serialized, .timeLimit(.minutes(20))) struct LostAnchorTests {
    static let block: Set<String> = ["r1c1", "r1c2", "r2c1", "r2c2"]

    @Test func sheetsWhoseOnlyAnchorFailsTheGateAreNamedAndLeftOutAndTheRestArePlacedFromTheirOwnAnchor() throws {
        let (folder, file) = try TiePlacementTests.series("lost-anchor", withGCPs: ["r2c2", "r3c3"])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Only ties within the block or within the rest: two groups, one anchor each.
        let csv = folder + "/ties.csv"
        let rows = try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\n")
        let kept = rows.filter { row in
            let f = row.split(separator: ",").map(String.init)
            return f[0] == "map_a" || Self.block.contains(f[0]) == Self.block.contains(f[3])
        }
        try (kept.joined(separator: "\n") + "\n").write(toFile: csv, atomically: true, encoding: .utf8)
        // r2c2's first GCP moved 50 km east: its RMSE fails the gate; r3c3's exact GCPs pass.
        let points = folder + "/gcps/r2c2.points"
        var lines = try String(contentsOfFile: points, encoding: .utf8).split(separator: "\n").map(String.init)
        var f = lines[2].split(separator: ",").map(String.init)
        f[0] = String(Double(f[0])! + 50_000)
        lines[2] = f.joined(separator: ",")
        try (lines.joined(separator: "\n") + "\n").write(toFile: points, atomically: true, encoding: .utf8)
        try MadeSeries.append("quality: {max_rmse_m: 5000, on_fail: skip}\n", to: file)

        let pipeline = try Pipeline.load(path: file)
        let failures = Dictionary(uniqueKeysWithValues: pipeline.series.failures.map { ($0.name, $0.exceeded) })
        #expect(Set(failures.keys) == Self.block, "\(failures)")
        #expect(failures["r2c2"]?.first?.contains("max_rmse_m") == true, "\(failures)")
        for name in Self.block.subtracting(["r2c2"]) {
            #expect(failures[name] == [Self.phrase], "\(name): \(failures[name] ?? [])")
        }
        #expect(pipeline.spec.maps.count == 12 && pipeline.spec.maps.allSatisfy { !Self.block.contains($0.name) })

        let log = LoggedLines()
        try PipelineRunner(pipeline: pipeline, options: RunOptions(stage: .georeference, jobs: 2), log: { log.append($0) }, progress: nil).run()
        let named = log.all.filter { $0.hasPrefix("quality: sheet ") }
        #expect(named.count == 4 && named.allSatisfy { !$0.contains("\n") }, "\(named)")
        for name in Self.block.subtracting(["r2c2"]) {
            #expect(named.contains("quality: sheet '\(name)' left out: \(Self.phrase)"), "\(named)")
        }
        let index =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: pipeline.workFolder + "/index.geojson"))) as! [String: Any]
        let figures = Dictionary(
            uniqueKeysWithValues: (index["features"] as! [[String: Any]]).map { ($0["id"] as! String, $0["properties"] as! [String: Any]) })
        #expect(figures.count == 16)
        for (name, f) in figures {
            let out = Self.block.contains(name)
            #expect(f["quality"] as? String == (out ? "skipped" : "ok"), "\(name): \(f)")
            #expect(FileManager.default.fileExists(atPath: "\(pipeline.workFolder)/\(name)/georef.vrt") != out, "\(name)")
        }
        #expect(figures["r1c1"]?["failures"] as? [String] == [Self.phrase])

        // The twelve left are placed from r3c3 as if the block had never been there (GDAL's GCP
        // transformer on their georef.vrt against the truth).
        let truth = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/truth.json"))) as! [String: Any]
        var rest = truth
        rest["sheets"] = (truth["sheets"] as! [String: Any]).filter { !Self.block.contains($0.key) }
        try JSONSerialization.data(withJSONObject: rest).write(to: URL(fileURLWithPath: folder + "/rest.json"))
        let out = try ProgramRun.output(
            PackageRoot.path(".venv/bin/python3"),
            [
                "-c", TiePlacementTests.positionOracle, folder + "/rest.json", pipeline.workFolder, "\(TiePlacementTests.collar)",
                "\(TiePlacementTests.collar + TiePlacementTests.cell + 2 * TiePlacementTests.overlap)",
            ])
        let errors = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Double], "\(out)")
        #expect(errors.count == 12 && errors.values.allSatisfy { $0 <= 2 }, "\(errors)")
    }

    /// What each sheet of the block placed through r2c2 alone is told.
    static let phrase = "has no GCPs (gcps: none) and the sheets with GCPs its ties reach ('r2c2') are left out by the gate, so nothing places it"
}
