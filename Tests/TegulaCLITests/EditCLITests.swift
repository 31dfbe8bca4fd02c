import Foundation
import Testing
import TegulaTestSupport

/// `tegula edit` end to end: the real Schagen scan (marble-qt-data) with a local basemap cut by
/// `tegula tile` from Marble's Blue Marble, driven in headless Chromium by scripts/editor_check.py
/// (pairs placed by clicks, the residual table against /api/fit's figures, drag, undo and redo,
/// mask, overlay, save); the overlay as the screen showed it against `tegula tile`'s tiles of the
/// saved annotation; the saved annotation read back by `tegula georef` to the same fit; the server
/// killed and started again with the session restored. Bad input refused with one line.
@Suite(.serialized)
struct EditCLITests {

    static func json(_ path: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any] ?? [:]
    }

    @Test func aPersonPlacesPointsSeesResidualsAndOverlaySavesAndComesBack() throws {
        let dir = try TemporaryFolder.make("edit").path
        // A local basemap: Blue Marble (plate carrée) cut to z0–3 by tegula itself.
        let world = try BlueMarble.georeferenced(in: URL(fileURLWithPath: dir), north: 90, south: -90)
        let tiled = try TegulaBinary.run(["tile", world, "-o", dir + "/basemap.mbtiles", "--zoom", "0-3", "--format", "jpeg"])
        #expect(tiled.status == 0, "\(tiled.stderr)")
        let output = dir + "/schagen.json"
        let args = [Schagen1689.scan, "-o", output, "--basemap", dir + "/basemap.mbtiles", "--render-threads", "2"]
        let check = TegulaBinary.packageRoot.appendingPathComponent("scripts/editor_check.py").path
        let points = Schagen1689.points

        let first = try LocalHTTPServer.tegula(["edit"] + args)
        let run = try ProgramRun.run("/usr/bin/python3", [check, "http://127.0.0.1:\(first.port)/", dir, "edit", points])
        print(run.stdout, run.stderr)
        #expect(run.status == 0, "editor_check edit: \(run.stdout) \(run.stderr)")
        first.stop()  // SIGKILL, as a crash would end it
        print("editor screenshots: \(dir)/editor-side.png, \(dir)/editor-overlay.png, \(dir)/editor-restored.png")

        // The saved annotation, read back by `tegula georef`: the fit the page showed.
        let shown = try Self.json(dir + "/fit.json")
        let georef = try TegulaBinary.run(["georef", Schagen1689.scan, "--gcps", output, "-o", dir + "/check.vrt", "--report", dir + "/report.json"])
        #expect(georef.status == 0, "\(georef.stderr)")
        let report = try Self.json(dir + "/report.json")
        #expect(report["transform"] as? String == shown["transform"] as? String, "\(report["transform"] ?? "") vs \(shown["transform"] ?? "")")
        let rmse = try #require((report["rmse"] as? [String: Any])?["metres"] as? Double)
        let shownRMSE = try #require(shown["rmse_m"] as? Double)
        #expect(abs(rmse - shownRMSE) <= 1e-6 * shownRMSE, "georef RMSE \(rmse) m, the page showed \(shownRMSE) m")
        let loo = (report["leaveOneOutRMSE"] as? [String: Any])?["metres"] as? Double
        #expect(loo.map { abs($0 - (shown["loo_rmse_m"] as? Double ?? .nan)) <= 1e-6 * $0 } ?? (shown["loo_rmse_m"] == nil))
        let saved = try Self.json(output)
        let selector = ((saved["target"] as? [String: Any])?["selector"] as? [String: Any])?["value"] as? String
        #expect(selector?.contains("<polygon") == true, "the mask is saved as the Allmaps selector")
        #expect(((saved["body"] as? [String: Any])?["features"] as? [Any])?.count == 8)

        // The overlay the page showed against `tegula tile`'s pyramid of the saved annotation
        // (its GCPs, transform and mask): the screen under each zoom-2 overlay tile, over the
        // pyramid tile's opaque pixels.
        let tiled2 = try TegulaBinary.run(["tile", Schagen1689.scan, "--gcps", output, "-o", dir + "/pyramid", "--quiet"])
        #expect(tiled2.status == 0, "\(tiled2.stderr)")
        let compared = try ProgramRun.run("/usr/bin/python3", [PackageRoot.path("scripts/screen_compare.py"), dir + "/overlay-screen.png",
                                                                dir + "/overlay-tiles.json", dir + "/pyramid"])
        try #require(compared.status == 0, "\(compared.stderr)")
        let c = try #require(try JSONSerialization.jsonObject(with: Data(compared.stdout.utf8)) as? [String: Double], "\(compared.stdout)")
        print("editor overlay on screen vs tegula tile's pyramid: \(c)")
        // Measured: 8 tiles, 377,246 px opaque, 15,319 (4.06 %) more than 2 levels off, 48.74 dB
        // (the overlay's zoom 2 is rendered on demand, the pyramid's averaged from its max zoom:
        // issue 28 item 10); bounds 5 % and 0.5 dB below.
        #expect(c["tiles"]! >= 2 && c["pixels"]! >= 20_000, "\(c)")
        #expect(c["off"]! <= 0.05 * c["pixels"]! && c["psnr"]! >= 48.24, "\(c)")

        // Killed and started again: the session is back, from the API and in the page.
        let second = try LocalHTTPServer.tegula(["edit"] + args)
        defer { second.stop() }
        let api = try ProgramRun.output("curl", ["-s", "--max-time", "10", "http://127.0.0.1:\(second.port)/api/session"])
        let restored = try JSONSerialization.jsonObject(with: Data(api.utf8)) as? [String: Any] ?? [:]
        let before = try Self.json(dir + "/session.json")
        #expect(NSDictionary(dictionary: restored).isEqual(to: before), "restored \(restored) vs \(before)")
        let again = try ProgramRun.run("/usr/bin/python3", [check, "http://127.0.0.1:\(second.port)/", dir, "restored"])
        print(again.stdout, again.stderr)
        #expect(again.status == 0, "editor_check restored: \(again.stdout) \(again.stderr)")
    }

    @Test func badInputIsRefusedWithOneLine() throws {
        let dir = try TemporaryFolder.make("edit-bad").path
        let garbage = dir + "/bad.points"
        try Data("mapX,mapY,sourceX,sourceY,enable\n1,2,three,4,1\n".utf8).write(to: URL(fileURLWithPath: garbage))
        let broken = dir + "/broken.jpg"
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10]).write(to: URL(fileURLWithPath: broken))
        let cases: [([String], String)] = [
            (["/nonexistent/scan.jpg"], "no such file"),
            ([broken], "broken.jpg"),
            ([Schagen1689.scan, "--gcps", garbage], "bad.points:2"),
            ([Schagen1689.scan, "--gcps", dir + "/missing.points"], "no such GCP file"),
            ([Schagen1689.scan, "-o", dir + "/out.txt"], ".points, .csv, .json"),
            ([Schagen1689.scan, "-o", dir + "/no/such/folder/out.points"], "does not exist"),
            ([Schagen1689.scan, "-o", dir + "/o.points", "--basemap", dir + "/nothing"], "neither a URL template"),
        ]
        for (args, needle) in cases {
            let r = try TegulaBinary.run(["edit"] + args + ["--port", "0"])
            let lines = r.stderr.split(separator: "\n")
            #expect(r.status != 0 && lines.count == 1 && r.stderr.contains(needle), "\(args): \(r.status) \(r.stderr)")
        }
    }
}
