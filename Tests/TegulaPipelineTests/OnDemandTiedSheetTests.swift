import Foundation
import TegulaCodec
import TegulaGeometry
import TegulaPyramid
import TegulaTestSupport
import TegulaTileset
import Testing

@testable import TegulaPipeline

/// Tiles on demand (`tegula serve SERIES.yml`) of the sheets of a series fitted together: each
/// sheet's tiles are rendered from its scan with its part of the joint fit, so they are the tiles
/// `tegula run` cuts for it. The oracle is the run's own cut (through `warped.tif`), on a 3 × 1
/// series from scripts/make-series: r1c1 and r1c2 with GCPs 4 px off, r1c3 without GCPs
/// (`gcps: none`), each neighbour pair tied by 10 ties across its overlap, written from the
/// generator's truth.
@Suite(.serialized, .timeLimit(.minutes(20))) struct OnDemandTiedSheetTests {
    /// The series with per-sheet outputs (folders at zoom 7) and its ties file.
    static func series(_ label: String) throws -> String {
        let folder = try TemporaryFolder.make(label).path
        try MadeSeries.make(in: folder, cols: 3, rows: 1, cell: 160, gcpError: 4, extra: ["--ties-file"])
        let list = folder + "/sheets.csv"
        let rows = try String(contentsOfFile: list, encoding: .utf8).split(separator: "\n").map { row -> String in
            let f = row.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            return f[0] == "r1c3" ? ([f[0], f[1], "none"] + f[3...]).joined(separator: ",") : String(row)
        }
        try (rows.joined(separator: "\n") + "\n").write(toFile: list, atomically: true, encoding: .utf8)
        let truth = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/truth.json"))) as! [String: Any]
        let sheets = truth["sheets"] as! [String: [String: Any]]
        func place(_ name: String) -> [String: Double] { ["x0", "y0", "res"].reduce(into: [:]) { $0[$1] = sheets[name]![$1] as? Double } }
        // Per neighbour pair, two rows across the 24-px overlap (the shared cell edge at
        // x = 10 + 12 + 160 on the left sheet), five places along it; each carried to the right
        // sheet by the truth's affine maps.
        var csv = "map_a,x_a,y_a,map_b,x_b,y_b\n"
        for (left, right) in [("r1c1", "r1c2"), ("r1c2", "r1c3")] {
            let (a, b) = (place(left), place(right))
            for x in [171.0, 193] {
                for y in stride(from: 14.0, through: 174, by: 40) {
                    let gx = a["x0"]! + x * a["res"]!, gy = a["y0"]! - y * a["res"]!
                    csv += "\(left),\(x),\(y),\(right),\((gx - b["x0"]!) / b["res"]!),\((b["y0"]! - gy) / b["res"]!)\n"
                }
            }
        }
        try csv.write(toFile: folder + "/ties.csv", atomically: true, encoding: .utf8)
        let file = folder + "/series.yml"
        try "version: 1\nmaps_from: sheets.csv\nmap_defaults:\n  output: \"out/{name}\"\n  tile: {max_zoom: 7}\nties_from: ties.csv\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    /// Two RGBA tiles over the pixels drawn in either (alpha > 0; the colour under alpha 0 is no
    /// pixel's): how many there are, how many differ, and the PSNR of their bytes (infinite when equal).
    static func compare(_ a: [UInt8], _ b: [UInt8]) -> (drawn: Int, differ: Int, psnr: Double) {
        var drawn = 0, differ = 0, squares = 0.0
        for i in stride(from: 0, to: min(a.count, b.count), by: 4) where a[i + 3] > 0 || b[i + 3] > 0 {
            drawn += 1
            var same = true
            for k in 0..<4 {
                let d = Double(a[i + k]) - Double(b[i + k])
                squares += d * d
                if d != 0 { same = false }
            }
            if !same { differ += 1 }
        }
        let mse = squares / Double(max(1, 4 * drawn))
        return (drawn, differ, mse == 0 ? .infinity : 10 * log10(255 * 255 / mse))
    }

    @Test func eachSheetOfASeriesServedOnDemandIsTheTilesTheRunCutForIt() throws {
        let file = try Self.series("ondemand-tied")
        let folder = (file as NSString).deletingLastPathComponent
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let ran = try runPipeline(file)
        #expect(ran.error == nil, "\(String(describing: ran.error))")
        let pipeline = try Pipeline.load(path: file)
        #expect(pipeline.series.tied.count == 3)
        var equal = 0, drawn = 0, differ = 0, worst = Double.infinity
        for map in pipeline.spec.maps {
            // What `tegula serve series.yml` renders for the sheet: straight from its scan.
            let renderer = try TileRenderer(job: try pipeline.tileJob(for: map))
            let cut = try Tileset.openReader(at: folder + "/out/" + map.name)
            let z = renderer.plan.zooms.max
            #expect(z == 7)
            for x in renderer.plan.range(z).x {
                for y in renderer.plan.range(z).y {
                    let t = Tile(x: x, y: y, z: z)
                    let mine = try renderer.render(t), theirs = try cut.tile(t)
                    #expect((mine == nil) == (theirs == nil), "\(map.name) \(t): on demand \(mine?.count ?? 0) B, cut \(theirs?.count ?? 0) B")
                    guard let mine, let theirs else { continue }
                    let a = try TileDecoder.decode(mine).rgba.pixels, b = try TileDecoder.decode(theirs).rgba.pixels
                    // Pixels drawn (alpha > 0) in either whose colour or alpha differ: the colour
                    // under alpha 0 is no pixel's.
                    let c = Self.compare(a, b)
                    #expect(
                        c.psnr >= 50 && c.differ * 100 <= c.drawn,
                        "\(map.name) \(t): \(c.differ) of \(c.drawn) drawn pixels of the tile on demand differ from the cut one's, PSNR \(c.psnr) dB")
                    if c.differ == 0 { equal += 1 }
                    (drawn, differ, worst) = (drawn + c.drawn, differ + c.differ, min(worst, c.psnr))
                }
            }
        }
        print(
            "tiles on demand of a tied series (one sheet gcps: none) against the run's cut: \(equal) max-zoom tiles the same pixels; "
                + "\(differ) of \(drawn) drawn pixels differ; least PSNR \(String(format: "%.1f", worst)) dB")
        #expect(drawn > 3 * 150 * 150 && differ * 1000 <= drawn)
    }
}
