import Foundation
import Testing
import TegulaTestSupport

/// `tegula serve --remove-color` end to end: a sheet of the generated series (``TestSeries``)
/// served on demand with its paper removed by the option gives the tiles of the same sheet served
/// from a pipeline file with a `remove_color:` section, byte for byte (the pipeline suite checks
/// those against the cut pyramid); a bad colour stops the server in one line.
struct RemoveColorCLITests {
    @Test func theServeOptionRemovesThePaperAsThePipelineSectionDoes() throws {
        let dir = try TemporaryFolder.make("cli-paper")
        defer { try? FileManager.default.removeItem(at: dir) }
        let series = try TestSeries(in: dir.path)
        let yml = dir.appendingPathComponent("sheet.yml").path
        try ("version: 1\nmaps:\n" + TestSeries.map(0, 0, mask: false, extra: "    remove_color: {color: auto}\n"
                + "    tile: {min_zoom: 8, max_zoom: \(TestSeries.zoom)}\n    output: out/sheet\n"))
            .write(toFile: yml, atomically: true, encoding: .utf8)
        // The paper kept: what the removal must change.
        let geo = series.folder + "/sheet-0-0-geo.tif"
        let plain = dir.appendingPathComponent("plain").path
        let tile = try TegulaBinary.run(["tile", geo, "-o", plain, "--zoom", "8-\(TestSeries.zoom)", "--quiet"])
        #expect(tile.status == 0, "\(tile.stderr)")
        // The pipeline's map (its own section) and the same scan with its geotransform (the option).
        let server = try LocalHTTPServer.tegula(["serve", yml, geo, "--remove-color", "auto"])
        defer { server.stop() }
        #expect(server.output(contains: "rendering on demand sheet-0-0-geo"))
        let z = TestSeries.zoom
        let x0 = (TestSeries.originX - TestSeries.collar) / 256, x1 = (TestSeries.originX - TestSeries.collar + TestSeries.scanSide - 1) / 256
        let y0 = (TestSeries.originY - TestSeries.collar) / 256, y1 = (TestSeries.originY - TestSeries.collar + TestSeries.scanSide - 1) / 256
        var compared = 0
        for x in x0...x1 {
            for y in y0...y1 {
                guard let kept = FileManager.default.contents(atPath: "\(plain)/\(z)/\(x)/\(y).png") else { continue }
                let section = try server.get("/sheet-0-0/\(z)/\(x)/\(y).png")
                let option = try server.get("/sheet-0-0-geo/\(z)/\(x)/\(y).png")
                #expect(section.status == 200 && option.status == 200 && section.body == option.body, "\(z)/\(x)/\(y)")
                #expect(option.body != kept, "\(z)/\(x)/\(y): the paper was not removed")
                compared += 1
            }
        }
        #expect(compared >= 1)
    }

    @Test func aBadColourIsRefusedInOneLine() throws {
        let r = try TegulaBinary.run(["serve", "nothing.tif", "--remove-color", "white"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("--remove-color 'white' is not a colour; expected auto or #RRGGBB"), "\(r.stderr)")
        let t = try TegulaBinary.run(["serve", "nothing.tif", "--remove-threshold", "0.2"])
        #expect(t.status != 0 && t.stderr.contains("--remove-threshold needs --remove-color"), "\(t.stderr)")
    }
}
