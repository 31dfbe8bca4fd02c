import Foundation
import Testing
import TegulaTestSupport

/// The viewer as a person sees it, in headless Chromium driven through Selenium (Debian's
/// `chromium`, `chromium-driver` and `python3-selenium`, installed by scripts/setup):
/// `tegula serve` with a cut tileset and the Schagen 1689 scan rendered on demand from
/// pipelines/schagen1689.yml; scripts/viewer_check.py checks that the on-demand layer's tiles
/// load (256 px images from its URLs, at the fitted view and zoomed out), that the layer list
/// says which layer is cut and which rendered on demand, that no GCP callout is open until a pin
/// is hovered, that distances read as a person writes them, and that no tile or console error
/// happens. Its screenshots (fitted, hovered, zoomed out) stay in TEGULA_VIEWER_OUT
/// (default: the system's temporary folder, tegula-viewer-test) for a person to look at.
struct ViewerBrowserTests {
    @Test func theViewerShowsAnOnDemandLayerInHeadlessChromium() throws {
        let dir = try TemporaryFolder.make("viewer")
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try WarpCLITests.georeferenced(WarpCLITests.scan, in: dir)
        let cut = dir.appendingPathComponent("bluemarble").path
        let made = try TegulaBinary.run(["tile", input, "-o", cut, "--zoom", "0-3", "--quiet"])
        #expect(made.status == 0, "\(made.stderr)")
        let pipeline = TegulaBinary.packageRoot.appendingPathComponent("pipelines/schagen1689.yml").path
        let server = try ServeCLITests.Server([cut, pipeline])
        defer { server.stop() }

        let out = ProcessInfo.processInfo.environment["TEGULA_VIEWER_OUT"]
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("tegula-viewer-test").path
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        for shot in ["viewer-fitted.png", "viewer-hover.png", "viewer-zoomed-out.png"] {
            try? FileManager.default.removeItem(atPath: "\(out)/\(shot)")
        }
        let script = TegulaBinary.packageRoot.appendingPathComponent("scripts/viewer_check.py").path
        // Debian's python3: python3-selenium is a system package (the project venv sees it too).
        let r = try ProgramRun.run("/usr/bin/python3", [script, "http://127.0.0.1:\(server.port)/", out, "schagen1689"])
        #expect(r.status == 0, "viewer_check failed:\n\(r.stdout)\(r.stderr)")
        for line in ["ok   tiles of the on-demand layer 'schagen1689' loaded, 256 px wide",
                     "ok   tiles of the on-demand layer loaded in the zoomed-out view",
                     "ok   the layer list says which layer is rendered on demand",
                     "ok   no GCP callout is open before a pin is hovered",
                     "ok   hovering a pin opens exactly one callout (1)"] {
            #expect(r.stdout.contains(line), "missing from viewer_check's report: \(line)\n\(r.stdout)")
        }
        for shot in ["viewer-fitted.png", "viewer-zoomed-out.png"] {
            let png = FileManager.default.contents(atPath: "\(out)/\(shot)") ?? Data()
            #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && png.count > 10_000, "\(shot): \(png.count) bytes")
        }
    }
}
