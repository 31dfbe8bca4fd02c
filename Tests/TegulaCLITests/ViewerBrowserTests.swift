import Foundation
import Testing
import TegulaTestSupport

/// The viewer page run for real, in headless Chromium (Debian's chromium, chromium-driver and
/// python3-selenium), over a tileset whose id and name are HTML that would run script if any of
/// it reached the page as markup (issue 16 items 5 and 6: the viewer's JavaScript in CI).
struct ViewerBrowserTests {
    static let driver = #"""
    import json, sys, time
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    opts = webdriver.ChromeOptions()
    opts.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1000,700"):
        opts.add_argument(flag)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    d = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)
    try:
        d.get(sys.argv[1])
        ready = False
        for _ in range(100):
            ready = d.execute_script("return window.tegulaReady === true")
            if ready: break
            time.sleep(0.2)
        time.sleep(1)
        try:
            alert = d.switch_to.alert.text
        except Exception:
            alert = None
        out = {
            "ready": ready, "alert": alert,
            "pwned": d.execute_script("return [window.pwned || 0, window.pwned2 || 0, window.pwned3 || 0]"),
            "injected": d.execute_script("return document.querySelectorAll('img[src=\"x\"], img[src=\"y\"], script:not([src]):not([id])').length"),
            "labels": d.execute_script("return Array.from(document.querySelectorAll('.leaflet-control-layers label')).map(l => l.innerText)"),
            "tiles": d.execute_script("return Array.from(document.querySelectorAll('img.leaflet-tile-loaded')).length"),
            "errors": [e["message"] for e in d.get_log("browser") if e["level"] == "SEVERE"],
        }
        print(json.dumps(out))
    finally:
        d.quit()
    """#

    @Test func hostileNamesStayTextInTheRunningViewer() throws {
        let dir = try TemporaryFolder.make("viewer").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let scan = dir + "/scan.tif"
        try SyntheticGeoTIFF.write(to: scan)
        let id = "x<img src=x onerror=window.pwned=1>"
        let name = "<img src=y onerror=window.pwned2=1></script><script>window.pwned3=1</script>"
        let tile = try TegulaBinary.run(["tile", scan, "-o", dir + "/" + id, "--zoom", "3-5", "--name", name, "--quiet"])
        try #require(tile.status == 0, "\(tile.stderr)")
        let server = try ServeCLITests.Server([dir + "/" + id])
        defer { server.stop() }
        let run = try ProgramRun.run("/usr/bin/python3", ["-c", Self.driver, "http://127.0.0.1:\(server.port)/"])
        try #require(run.status == 0, "\(run.stderr)")
        let out = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)")
        #expect(out["ready"] as? Bool == true, "the viewer did not finish: \(out)")
        #expect(out["alert"] is NSNull, "\(out)")
        #expect(out["pwned"] as? [Int] == [0, 0, 0], "script from a name ran: \(out)")
        #expect(out["injected"] as? Int == 0, "\(out)")
        let labels = out["labels"] as? [String] ?? []
        #expect(labels.contains { $0.contains(name) }, "the layer list should show the name as text: \(labels)")
        #expect((out["tiles"] as? Int ?? 0) > 0, "no tile loaded: \(out)")
        #expect((out["errors"] as? [String] ?? []).isEmpty, "browser errors: \(out)")
        print("viewer in Chromium: ready, \(out["tiles"] ?? 0) tiles loaded, layer list \(labels)")
    }
}
