import Foundation
import TegulaTestSupport
import Testing

/// The tie editor end to end (`tegula edit PIPELINE --map A --tie-with B`) on a two-sheet series
/// made by scripts/make-series: scripts/ties_check.py drives it in headless Chromium (ties listed,
/// a tie picked by a click on each sheet at the same true place, seam errors against a numpy
/// oracle of each sheet's own fit, delete, undo, save; the saved pipeline read by PyYAML), then
/// `tegula run` of the saved pipeline fits the sheets with the page's ties and reports the same
/// seam errors in its sheet index. Bad input refused with one line.
@Suite(.timeLimit(.minutes(20)), .serialized)
struct TieEditCLITests {
    @Test func aPersonPicksATieOnTwoSheetsAndTheRunUsesIt() throws {
        let dir = try TemporaryFolder.make("edit-ties").path
        let series = try MadeSeries.make(in: dir + "/series", cols: 2, rows: 1, cell: 256)
        // Comments before, inside and after the keys: the save must keep every one.
        let text = try String(contentsOfFile: series, encoding: .utf8)
        try
            ("# a series for the tie editor\n" + text.replacingOccurrences(of: "tie_weight:", with: "# how much a tie weighs\ntie_weight:")
            + "# the end\n").write(toFile: series, atomically: true, encoding: .utf8)
        let server = try LocalHTTPServer.tegula(["edit", series, "--map", "r1c1", "--tie-with", "r1c2", "--render-threads", "2"])
        let run = try ProgramRun.run("/usr/bin/python3", [PackageRoot.path("scripts/ties_check.py"), server.base + "/", dir + "/series", dir])
        server.stop()
        print(run.stdout, run.stderr)
        #expect(run.status == 0, "ties_check: \(run.stdout) \(run.stderr)")
        print("tie editor screenshot: \(dir)/ties.png")

        // The run of the saved pipeline: its ties are the page's, and its seams the page's figures.
        let ran = try TegulaBinary.run(["run", series])
        #expect(ran.status == 0, "\(ran.stderr)")
        let page = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/ties-page.json"))) as? [String: Any])
        let shown = try #require((page["figures"] as? [String: Any])?["ties"] as? [[String: Any]])
        let index = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/series/.tegula/series/index.geojson")))
                as? [String: Any])
        let ties = try #require(index["ties"] as? [[String: Any]])
        #expect(ties.count == shown.count && shown.count == 2, "the run reports \(ties.count) ties; the page saved \(shown.count)")
        for (t, s) in zip(ties, shown) {
            let before = try #require(t["seam_before_m"] as? Double), after = try #require(t["seam_after_m"] as? Double)
            let pageBefore = try #require(s["seam_m"] as? Double), pageAfter = try #require(s["seam_after_m"] as? Double)
            #expect(abs(before - pageBefore) <= 1e-6 * pageBefore, "tie \(t["index"] ?? ""): run \(before) m, page \(pageBefore) m before")
            #expect(abs(after - pageAfter) <= 1e-6 * pageAfter + 1e-6, "tie \(t["index"] ?? ""): run \(after) m, page \(pageAfter) m after")
            #expect(after < before / 10, "the joint fit closes the seam: \(before) m → \(after) m")
        }
    }

    @Test func badTieEditorArgumentsAreRefusedWithOneLine() throws {
        let dir = try TemporaryFolder.make("edit-ties-bad").path
        let series = try MadeSeries.make(in: dir, cols: 2, rows: 1, cell: 128)
        let text = try String(contentsOfFile: series, encoding: .utf8)
        let lineCount = text.split(separator: "\n", omittingEmptySubsequences: false).count - 1
        try (text + "ties_from: missing.csv\n").write(toFile: dir + "/missing.yml", atomically: true, encoding: .utf8)
        let cases: [([String], String)] = [
            (["edit", series, "--tie-with", "r1c2"], "--tie-with needs --map"),
            (["edit", series, "--map", "r1c1", "--tie-with", "r9c9"], "has no map 'r9c9'"),
            (["edit", series, "--map", "r1c1", "--tie-with", "r1c1"], "a tie joins two different maps"),
            (["edit", series, "--map", "r1c1", "--tie-with", "r1c2", "-o", dir + "/x.points"], "-o does not apply with --tie-with"),
            (["edit", dir + "/none.yml", "--map", "r1c1", "--tie-with", "r1c2"], "no such pipeline file"),
            // Seen failing before: the pipeline file named twice ("….yml: ….yml:9:13: ties_from: …").
            (
                ["edit", dir + "/missing.yml", "--map", "r1c1", "--tie-with", "r1c2"],
                "missing.yml:\(lineCount + 1):12: ties_from: ties file \(dir)/missing.csv does not exist"
            ),
        ]
        for (args, message) in cases {
            let r = try TegulaBinary.run(args)
            let lines = r.stderr.split(separator: "\n").filter { !$0.hasPrefix("Usage") && !$0.hasPrefix("  See") && !$0.isEmpty }
            #expect(r.status != 0 && r.stderr.contains(message) && lines.count == 1, "\(args): \(r.status) \(r.stderr)")
            #expect(r.stderr.components(separatedBy: ".yml").count <= 2, "\(args): the file named once: \(r.stderr)")
        }
    }
}
