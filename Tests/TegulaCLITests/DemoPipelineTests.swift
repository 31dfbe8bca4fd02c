import Foundation
import Testing
import TegulaTestSupport

/// The demo pipeline end to end, at zooms 0–1: both maps, the composite, then nothing to redo.
struct DemoPipelineTests {
    @Test func demoPipelineRunsAndThenSkips() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tegula-demo-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let pipelines = TegulaBinary.packageRoot.appendingPathComponent("pipelines")
        let demo = try String(contentsOf: pipelines.appendingPathComponent("demo.yml"), encoding: .utf8)
            .replacingOccurrences(of: "max_zoom: 3", with: "max_zoom: 1")
            .replacingOccurrences(of: "gcps: schagen1689.points", with: "gcps: \(pipelines.path)/schagen1689.points")
        #expect(demo.contains("max_zoom: 1") && !demo.contains("max_zoom: 3"))
        let file = dir.appendingPathComponent("demo.yml").path
        try demo.write(toFile: file, atomically: true, encoding: .utf8)

        let r = try TegulaBinary.run(["run", file, "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        for name in ["bluemarble", "schagen1689", "world"] {
            let info = try ProgramRun.run("python3", ["-c", """
                import sys; from pmtiles.reader import Reader, MmapSource
                r = Reader(MmapSource(open(sys.argv[1], 'rb'))); h = r.header()
                print(h['min_zoom'], h['max_zoom'], r.get(1, 1, 0) is not None)
                """, dir.appendingPathComponent("out/demo/\(name).pmtiles").path])
            #expect(info.stdout == "0 1 True\n", "\(name): \(info.stdout) \(info.stderr)")
        }
        #expect(r.stderr.contains("schagen1689: georeference GCPs from schagen1689.points, transform tps"), "\(r.stderr)")
        #expect(r.stderr.contains("composite:  2 maps"), "\(r.stderr)")
        let work = dir.appendingPathComponent(".tegula/demo/schagen1689")
        for f in ["georef.vrt", "report.json", "residuals.svg", "warped.tif", "manifest.json"] {
            #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent(f).path), "\(f)")
        }

        let again = try TegulaBinary.run(["run", file, "--quiet"])
        #expect(again.status == 0, "\(again.stderr)")
        let ran = again.stderr.split(separator: "\n").filter { !$0.contains("skipped") && !$0.contains("warning") }
        #expect(ran.isEmpty, "\(again.stderr)")
    }
}
