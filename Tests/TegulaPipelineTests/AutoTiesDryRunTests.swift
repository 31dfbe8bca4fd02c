import Foundation
import TegulaSupport
import TegulaTestSupport
import Testing

@testable import TegulaPipeline

/// `tegula run --dry-run` with `ties: auto`: the overlaps are matched as a run matches them, and
/// the plan says what was found, yet nothing is written.
@Suite(.timeLimit(.minutes(10))) struct AutoTiesDryRunTests {
    /// Seen failing before a dry run kept its found ties in memory: it wrote `found-ties.csv` and
    /// `found-ties.json` into the work folder, printed "dry run: nothing was written", and none of
    /// the lines a run logs of what the matching found.
    @Test func aDryRunMatchesTheOverlapsPrintsWhatARunWouldLogAndWritesNothing() throws {
        let (folder, file) = try AutoTiesTests.series("autoties-dry", cols: 4, rows: 1, ties: "ties: auto\nties_from: hand.csv")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // One hand tie where r1c1 and r1c2 truly meet (the cells are 160 px apart).
        try "map_a,x_a,y_a,map_b,x_b,y_b\nr1c1,190,100,r1c2,30,100\n".write(toFile: folder + "/hand.csv", atomically: true, encoding: .utf8)
        // r1c2 shows r1c4's ground: its two overlaps do not match.
        try FileManager.default.removeItem(atPath: folder + "/scans/r1c2.tif")
        try FileManager.default.copyItem(atPath: folder + "/scans/r1c4.tif", toPath: folder + "/scans/r1c2.tif")
        let heard = Locked<[String]>([])
        let pipeline = try Pipeline.load(path: file, jobs: 2, dryRun: true) { label, done, total in
            heard.withLock { $0.append("\(label) \(done)/\(total)") }
        }
        let work = pipeline.workFolder
        let text = PipelinePlan(pipeline: pipeline, options: RunOptions(jobs: 2)).text
        #expect(!FileManager.default.fileExists(atPath: work), "\((try? FileManager.default.contentsOfDirectory(atPath: work)) ?? [])")
        let lines = text.split(separator: "\n").map(String.init)
        let found = pipeline.spec.ties.count - 1
        #expect(lines.contains("ties: auto found \(found) ties in 1 of 3 overlapping pairs (a run writes them to \(work)/found-ties.csv)"), "\(text)")
        let unmatched = lines.filter { $0.contains("overlap but do not match") }
        #expect(unmatched.count == 2, "\(text)")
        // The pair tied by hand keeps its tie (seen failing: "no ties").
        #expect(
            unmatched.contains { $0.hasPrefix("ties: auto: sheets 'r1c1' and 'r1c2'") && $0.hasSuffix("): no found ties; its 1 hand tie stands") })
        #expect(unmatched.contains { $0.hasPrefix("ties: auto: sheets 'r1c2' and 'r1c3'") && $0.hasSuffix("): no ties") })
        #expect(lines.last == "dry run: nothing was written")
        // Each overlap matched was heard: three of three at the end.
        #expect(heard.current.last == "ties: auto 3/3", "\(heard.current)")
        // A run then finds the same ties and writes them.
        let run = try Pipeline.load(path: file, jobs: 2)
        #expect(found > 0 && run.spec.ties == pipeline.spec.ties)
        #expect(FileManager.default.fileExists(atPath: work + "/found-ties.csv"))
        // And the next load reads them back, saying so (seen failing: "found", as if matched anew).
        let again = PipelinePlan(pipeline: try Pipeline.load(path: file, jobs: 2), options: RunOptions(jobs: 2)).text
        #expect(again.contains("overlapping pairs (as found before: the sheets and settings are unchanged) → \(work)/found-ties.csv"), "\(again)")
    }

    /// Seen failing before: "found 0 ties in 0 of 0 overlapping pairs", where the sheets overlap
    /// but less than `min_overlap_px` asks.
    @Test func aMinimumOverlapNoPairReachesIsSaidToBeWhyNoPairWasMatched() throws {
        let (folder, file) = try AutoTiesTests.series("autoties-narrow", cols: 2, rows: 1, ties: "ties: {auto: {min_overlap_px: 500}}")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let pipeline = try Pipeline.load(path: file, jobs: 2, dryRun: true)
        let text = PipelinePlan(pipeline: pipeline, options: RunOptions(jobs: 2)).text
        #expect(
            text.contains("ties: auto found no ties: no two sheets' fits overlap by min_overlap_px (500 px) or more across, so no pair was matched"),
            "\(text)")
    }
}
