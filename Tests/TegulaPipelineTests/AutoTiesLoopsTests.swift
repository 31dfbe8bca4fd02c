import Foundation
import TegulaGeometry
import TegulaMatch
import TegulaTestSupport
import Testing

@testable import TegulaPipeline

/// `ties: auto`'s check of each pair against the loops of pairs through it (``AutoTies/Loops``),
/// on a 4 × 4 series made by scripts/make-series (as ``AutoTiesTests``: zoom 4, 4-px GCP errors,
/// 24-px overlaps): the run's own ties are kept, and the same ties with one pair's moved together
/// onto a wrong place (as a look-alike a few pixels off places them) lose that pair alone, or,
/// at the corner sheet, that sheet's two ties. The oracle is the generator's truth: how far each
/// pair's ties lie from where truth.json puts them.
@Suite(.serialized, .timeLimit(.minutes(20))) struct AutoTiesLoopsTests {
    /// The largest distance, per pair, of a ties file's ties from where truth.json puts the point
    /// of sheet a on sheet b (argv: the series folder, the ties file), as `{"a b": px}`.
    static let truthOracle = """
        import csv, json, math, sys
        sheets = json.load(open(sys.argv[1] + "/truth.json"))["sheets"]
        worst = {}
        for r in csv.DictReader(open(sys.argv[2])):
            a, b = sheets[r["map_a"]], sheets[r["map_b"]]
            X, Y = a["x0"] + float(r["x_a"]) * a["res"], a["y0"] - float(r["y_a"]) * a["res"]
            d = math.hypot((X - b["x0"]) / b["res"] - float(r["x_b"]), (b["y0"] - Y) / b["res"] - float(r["y_b"]))
            k = r["map_a"] + " " + r["map_b"]
            worst[k] = max(worst.get(k, 0.0), d)
        print(json.dumps(worst))
        """

    /// The pairs' largest tie distances from the truth (``truthOracle``) over the ties of `finding`.
    static func fromTheTruth(_ folder: String, _ finding: AutoTies.Finding) throws -> [String: Double] {
        let file = folder + "/moved-ties.csv"
        try finding.csv.write(toFile: file, atomically: true, encoding: .utf8)
        let out = try ProgramRun.output(PackageRoot.path(".venv/bin/python3"), ["-c", truthOracle, folder, file])
        return try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Double], "\(out)")
    }

    /// The run's matched pairs and their ties, read back from its record and ties file, with the
    /// ties on sheet b of the pairs in `moved` moved by `by` pixels, and the pairs in `dropped` left out.
    static func finding(_ work: String, _ found: AutoTies, moved: Set<String>, by: (Double, Double), dropped: Set<String> = []) throws
        -> AutoTies.Finding
    {
        var finding = AutoTies.Finding(finder: OverlapTieSettings(), order: [:])
        let rows = try String(contentsOfFile: AutoTies.csvPath(work: work), encoding: .utf8).split(separator: "\n").dropFirst()
            .map { $0.split(separator: ",").map(String.init) }
        for pair in found.pairs where pair.matched && !dropped.contains("\(pair.mapA) \(pair.mapB)") {
            let shift = moved.contains("\(pair.mapA) \(pair.mapB)") ? by : (0, 0)
            let ties = rows.filter { $0[0] == pair.mapA && $0[3] == pair.mapB }.map { f in
                ProposedPoint(
                    scan: PixelPoint(x: Double(f[1])!, y: Double(f[2])!),
                    reference: PixelPoint(x: Double(f[4])! + shift.0, y: Double(f[5])! + shift.1),
                    score: Double(f[6])!)
            }
            finding.pairs.append(pair)
            finding.points.append(ties)
        }
        return finding
    }

    @Test func aPairWhoseTiesAgreeOnAPlaceFourPixelsOffIsRefusedByTheLoopsThroughItAndEveryTruePairIsKept() throws {
        let (folder, file) = try AutoTiesTests.series("autoties-loops", cols: 4, rows: 4)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let pipeline = try Pipeline.load(path: file)
        let found = try #require(pipeline.foundTies)
        let matched = Set(found.pairs.filter(\.matched).map { "\($0.mapA) \($0.mapB)" })
        // The run's own ties (the loops check ran on them): every pair across an edge kept.
        #expect(AutoTiesTests.edgePairs(cols: 4, rows: 4).isSubset(of: matched), "\(found.pairs.filter { !$0.matched })")
        #expect(!found.pairs.contains { $0.why?.contains("loops") == true }, "\(found.pairs.filter { !$0.matched })")

        // r2c2–r2c3 lies in two loops (r1c2 r1c3 r2c3 r2c2, r2c2 r2c3 r3c3 r3c2): its ties moved 4 px down on r2c3.
        let wrong = "r2c2 r2c3"
        var finding = try Self.finding(pipeline.workFolder, found, moved: [wrong], by: (0, 4))
        let truth = try Self.fromTheTruth(folder, finding)
        finding.refuseWhatLoopsDoNotClose()
        let refused = Set(finding.pairs.filter { !$0.matched }.map { "\($0.mapA) \($0.mapB)" })
        let why = finding.pairs.first { "\($0.mapA) \($0.mapB)" == wrong }?.why ?? "kept"
        print("loops: refused \(refused.sorted()); truth: \(String(format: "%.2f", truth[wrong] ?? -1)) px off; \(why)")
        #expect(refused == Set(truth.filter { $0.value > 2 }.keys), "from the truth: \(truth)")
        #expect(refused == [wrong] && why.contains("loops of pairs through it") && truth.values.filter { $0 <= 2 }.allSatisfy { $0 <= 1 })
        #expect(!finding.csv.split(separator: "\n").contains { $0.hasPrefix("r2c2,") && $0.contains(",r2c3,") }, "\(finding.csv)")

        // r1c1–r1c2 lies in one loop, with r1c1–r2c1, the corner sheet's other tie, which no other
        // loop judges: the loops cannot tell which of r1c1's two ties is wrong, and keep neither.
        var corner = try Self.finding(pipeline.workFolder, found, moved: ["r1c1 r1c2"], by: (0, 4))
        corner.refuseWhatLoopsDoNotClose()
        let cornerRefused = corner.pairs.filter { !$0.matched }
        #expect(Set(cornerRefused.map { "\($0.mapA) \($0.mapB)" }) == ["r1c1 r1c2", "r1c1 r2c1"], "\(cornerRefused)")
        #expect(cornerRefused.allSatisfy { $0.why?.contains("which of 'r1c1''s ties is wrong") == true }, "\(cornerRefused)")
        // Were r1c1 without GCPs, nothing would place it now: it is named so (AutoTies.make lists it as unplaced).
        #expect(corner.untied(["r1c1", "r2c2"]) == ["r1c1"])

        // The same pair with no loop to judge it (the pairs that close its loops left out): kept.
        let alone = ["r1c2 r1c3", "r3c2 r3c3", "r1c2 r2c3", "r1c3 r2c2", "r2c2 r3c3", "r2c3 r3c2"]
        var unjudged = try Self.finding(pipeline.workFolder, found, moved: [wrong], by: (0, 4), dropped: Set(alone))
        unjudged.refuseWhatLoopsDoNotClose()
        #expect(unjudged.pairs.allSatisfy { $0.matched }, "\(unjudged.pairs.filter { !$0.matched })")
    }
}
