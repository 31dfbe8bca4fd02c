import Foundation
import TegulaTestSupport
import Testing

/// A series pipeline served on demand (`tegula serve series.yml`) serves its sheet index as a
/// composite's tileset does: at `/{id}.index.geojson` of each of its maps, named by their
/// TileJSON's `sheet_index`, and the same bytes `tegula run` wrote beside the composite.
@Suite(.timeLimit(.minutes(20)))
struct OnDemandSheetIndexCLITests {
    @Test func aPipelineServedOnDemandServesTheSheetIndexTegulaRunWrites() throws {
        let dir = try TemporaryFolder.make("ondemand-index")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = try MadeSeries.make(in: dir.path, cols: 2, rows: 2, extra: ["--tone-offset", "8"])
        // Tone matching on, so the index carries the composite's tones as well as the fits.
        try
            (try String(contentsOfFile: file, encoding: .utf8).replacingOccurrences(
                of: "tile: {max_zoom: 7}}", with: "tile: {max_zoom: 7}, tone: match}")).write(toFile: file, atomically: true, encoding: .utf8)
        let ran = try TegulaBinary.run(["run", file, "--quiet"])
        try #require(ran.status == 0, "\(ran.stderr)")
        let written = try Data(contentsOf: URL(fileURLWithPath: dir.path + "/out/series.index.geojson"))
        #expect(String(decoding: written, as: UTF8.self).contains("\"tone_gain\""))

        let server = try LocalHTTPServer.tegula(["serve", file])
        defer { server.stop() }
        for id in ["r1c1", "r2c2"] {
            let tileJSON = try server.get("/\(id).json")
            let members = try JSONSerialization.jsonObject(with: tileJSON.body) as? [String: Any]
            #expect(members?["sheet_index"] as? String == "http://127.0.0.1:\(server.port)/\(id).index.geojson", "\(String(describing: members))")
            let index = try server.get("/\(id).index.geojson")
            #expect(index.status == 200 && index.headers["content-type"] == "application/geo+json")
            #expect(index.body == written, "\(id): \(String(decoding: index.body, as: UTF8.self).prefix(300))")
        }
        // The viewer draws the pipeline's outlines once, from its first map.
        let page = String(decoding: try server.get("/").body, as: UTF8.self)
        #expect(page.components(separatedBy: "\"sheets\":").count == 2 && page.contains("\"sheets\":\"/r1c1.index.geojson\""), "\(page.prefix(2000))")
    }
}
