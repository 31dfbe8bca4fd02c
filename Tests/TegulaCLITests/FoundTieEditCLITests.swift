import Foundation
import TegulaTestSupport
import Testing

/// Ties found by `ties: auto` in the sheet index and the tie editor (issue 43, item 1), end to end
/// on a 2 × 1 series made by scripts/make-series at zoom 4 (GCPs 4 px off, two hand ties in
/// `ties_from: ties.csv`): `tegula run` finds the ties and its sheet index gives each pair's count
/// and score as found-ties.csv holds them; `tegula edit --tie-with` lists them beside the hand
/// ties in headless Chromium, a found tie dragged and two others removed are saved to ties.csv
/// (the page then shows what the server read back: the moved tie a hand tie, the removed ones
/// greyed with Restore); after a reload one removed tie is restored and saved, and the next
/// `tegula run` fits the moved tie at its new place and the restored one, and neither the removed
/// one nor the moved one's old place. scripts/found_ties_check.py checks each step from the files
/// (Python's csv, the tie pins in each sheet's report.json) and the server's answers.
@Suite(.timeLimit(.minutes(20)), .serialized)
struct FoundTieEditCLITests {
    /// The check script in `mode` with `arguments`; its output printed, its status expected 0.
    func check(_ mode: String, _ arguments: [String]) throws {
        let run = try ProgramRun.run("/usr/bin/python3", [PackageRoot.path("scripts/found_ties_check.py"), mode] + arguments)
        print(run.stdout, run.stderr)
        #expect(run.status == 0, "found_ties_check \(mode): \(run.stdout) \(run.stderr)")
    }

    @Test func foundTiesAreInTheSheetIndexAndAMovedAndARemovedFoundTieSavedInTheEditorHoldInTheNextRun() throws {
        let dir = try TemporaryFolder.make("edit-found-ties").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let series = try MadeSeries.make(in: dir + "/series", cols: 2, rows: 1, maxZoom: 4, extra: ["--ties-file"])
        try MadeSeries.append("ties: auto\n", to: series)
        let first = try TegulaBinary.run(["run", series, "--quiet"])
        #expect(first.status == 0, "\(first.stderr)")
        try check("index", [dir + "/series"])

        let server = try LocalHTTPServer.tegula(["edit", series, "--map", "r1c1", "--tie-with", "r1c2", "--render-threads", "2"])
        defer { server.stop() }
        try check("edit", [server.base + "/", dir + "/series", dir])
        server.stop()
        print("found ties editor screenshot: \(dir)/found-ties.png")

        let again = try TegulaBinary.run(["run", series, "--quiet"])
        #expect(again.status == 0 && !again.stderr.contains("leaves no found tie out"), "\(again.stderr)")
        try check("after", [dir + "/series", dir])
        try check("index", [dir + "/series", dir])

        // A rejected row 3 px off the restored tie leaves no found tie out: the run fits that tie
        // and names the row's line on stderr.
        let edit = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/found-edit.json"))) as? [String: Any]
        let back = try #require(edit?["restored"] as? [String: Any])
        let a = try #require(back["a"] as? [Double]), b = try #require(back["b"] as? [Double])
        let tiesFile = dir + "/series/ties.csv"
        var text = try String(contentsOfFile: tiesFile, encoding: .utf8)
        let header = text.prefix { $0 != "\n" }.split(separator: ",").map(String.init)
        let row = [
            "map_a": "r1c1", "x_a": "\(a[0] + 3)", "y_a": "\(a[1])", "map_b": "r1c2", "x_b": "\(b[0] + 3)", "y_b": "\(b[1])", "kind": "rejected",
        ]
        text += header.map { row[$0] ?? "" }.joined(separator: ",") + "\n"
        try text.write(toFile: tiesFile, atomically: true, encoding: .utf8)
        let line = text.split(separator: "\n").count
        let third = try TegulaBinary.run(["run", series, "--quiet"])
        #expect(third.status == 0 && header.contains("kind"), "\(third.stderr)")
        #expect(
            third.stderr.contains("ties.csv:\(line): the rejected row of 'r1c1'") && third.stderr.contains("leaves no found tie out"),
            "\(third.stderr)")
        try check("after", [dir + "/series", dir])
    }
}
