import Foundation
import TegulaCodec
import TegulaGeometry
import TegulaPyramid
import TegulaTestSupport
import TegulaTileset
import Testing

@testable import TegulaPipeline

/// `remove_color:` on the generated series (``TestSeries``): the paper of a sheet — its collar
/// and the blank map — goes to alpha 0 and its ink and water stay opaque, `auto` finds the paper
/// colour in the collar, the tiles made on demand are the cut tiles, and `map_defaults:` carries
/// it to every sheet of a composite.
@Suite(.serialized) struct RemoveColorTests {
    /// Sheet (0, 0) without its mask, cut into its own tileset with `section` as `remove_color:`.
    static func sheetPipeline(_ series: TestSeries, _ section: String) throws -> String {
        let path = series.folder + "/sheet.yml"
        try
            ("version: 1\nmaps:\n"
            + TestSeries.map(
                0, 0, mask: false,
                extra: "    remove_color: \(section)\n"
                    + "    tile: {min_zoom: 8, max_zoom: \(TestSeries.zoom)}\n    output: out/sheet.pmtiles\n"))
            .write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The alpha of the max-zoom pixels of a `width`-square area at grid pixel (`x0`, `y0`).
    static func alphas(_ tileset: String, x0: Int, y0: Int, width: Int) throws -> [UInt8] {
        let reader = try Tileset.openReader(at: tileset)
        var tiles: [Tile: RGBAImage] = [:]
        var out = [UInt8](repeating: 0, count: width * width)
        for y in 0..<width {
            for x in 0..<width {
                let gx = x0 + x, gy = y0 + y, t = Tile(x: gx / 256, y: gy / 256, z: TestSeries.zoom)
                if tiles[t] == nil { tiles[t] = try reader.tile(t).map { try TileDecoder.decode($0).rgba } ?? RGBAImage(width: 256, height: 256) }
                out[y * width + x] = tiles[t]!.pixels[((gy % 256) * 256 + gx % 256) * 4 + 3]
            }
        }
        return out
    }

    @Test func theCollarAndThePaperGoClearAndTheInkStaysOpaque() throws {
        let folder = try TemporaryFolder.make("paper").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let series = try TestSeries(in: folder)
        let file = try Self.sheetPipeline(series, "{color: auto}")
        let r = try runPipeline(file)
        #expect(r.error == nil, "\(String(describing: r.error)) \(r.log)")
        // auto: the collar's paper, the source's (232, 222, 196) lightened by the sheet's 4 levels.
        #expect(r.log.contains { $0.contains("paper #ece2c8 removed") }, "\(r.log)")
        let side = TestSeries.scanSide
        let labels = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/sheet-0-0.labels")))
        let alpha = try Self.alphas(
            folder + "/out/sheet.pmtiles", x0: TestSeries.originX - TestSeries.collar,
            y0: TestSeries.originY - TestSeries.collar, width: side)
        var paper = 0, clear = 0, drawn = 0, opaque = 0
        for i in 0..<(side * side) {
            if labels[i] == TestSeries.paperLabel {
                paper += 1; if alpha[i] == 0 { clear += 1 }
            } else {
                drawn += 1; if alpha[i] == 255 { opaque += 1 }
            }
        }
        print(
            "remove_color auto on a sheet with its collar: \(clear) of \(paper) paper pixels clear, \(opaque) of \(drawn) ink and water pixels opaque"
        )
        #expect(paper > 10_000 && clear == paper)
        #expect(drawn > 1_000 && opaque == drawn)
        // Without the section the same sheet is opaque throughout (the removal made the difference).
        try (try String(contentsOfFile: file, encoding: .utf8)).replacingOccurrences(of: "    remove_color: {color: auto}\n", with: "")
            .write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try runPipeline(file).error == nil)
        let kept = try Self.alphas(
            folder + "/out/sheet.pmtiles", x0: TestSeries.originX - TestSeries.collar,
            y0: TestSeries.originY - TestSeries.collar, width: side)
        #expect(kept.allSatisfy { $0 == 255 })
    }

    @Test func tilesOnDemandAreTheCutTiles() throws {
        let folder = try TemporaryFolder.make("paper-od").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let series = try TestSeries(in: folder)
        // Soft: the sheet's paper lies 0.027 from this colour, so it keeps about half its alpha.
        let file = try Self.sheetPipeline(series, "{color: \"#E8DEC4\", threshold: 0.05, hardness: 0}")
        #expect(try runPipeline(file).error == nil)
        // What `tegula serve sheet.yml` renders: the map's pyramid straight from its scan.
        let pipeline = try Pipeline.load(path: file)
        let renderer = try TileRenderer(job: try pipeline.tileJob(for: pipeline.spec.maps[0]))
        // The pyramid cut from the same job (as `tegula tile` cuts it).
        var job = renderer.job
        job.output = folder + "/cut"
        _ = try job.run()
        let cut = try Tileset.openReader(at: folder + "/cut")
        // The pipeline's own tiles, cut from its warped.tif.
        let run = try Tileset.openReader(at: folder + "/out/sheet.pmtiles")
        let z = renderer.plan.zooms.max
        var same = 0, partial = 0, alphaDiffers = 0, colourDiffers = 0
        for x in renderer.plan.range(z).x {
            for y in renderer.plan.range(z).y {
                let t = Tile(x: x, y: y, z: z)
                let bytes = try cut.tile(t)
                #expect(try renderer.render(t) == bytes, "tile \(t)")
                guard let bytes else { continue }
                same += 1
                let a = try TileDecoder.decode(bytes).rgba.pixels
                let b = try TileDecoder.decode(try #require(try run.tile(t))).rgba.pixels
                partial += stride(from: 3, to: a.count, by: 4).filter { a[$0] != 0 && a[$0] != 255 }.count
                for i in stride(from: 0, to: a.count, by: 4) {
                    if a[i + 3] != b[i + 3] { alphaDiffers += 1 }
                    if a[i + 3] > 0, (0..<3).contains(where: { a[i + $0] != b[i + $0] }) { colourDiffers += 1 }
                }
            }
        }
        print(
            "remove_color on demand: \(same) max-zoom tiles byte-identical to the cut ones (\(partial) partly clear pixels in them); "
                + "against the pipeline's tiles through warped.tif: alpha differs in \(alphaDiffers) px, colour in \(colourDiffers) drawn px")
        #expect(same >= 1)
        // A soft removal leaves partly clear pixels: the comparisons reach them.
        #expect(partial > 10_000)
        #expect(alphaDiffers == 0 && colourDiffers == 0)
    }

    @Test func mapDefaultsCarryItToEverySheetOfTheComposite() throws {
        let folder = try TemporaryFolder.make("paper-comp").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let series = try TestSeries(in: folder)
        let (_, labels) = try series.source()
        let file = try SeamTests.pipeline(
            series, "clear", composite: "  seam: {feather: 16}\n",
            defaults: "map_defaults:\n  remove_color: {color: \"#e8dec4\"}\n")
        let r = try runPipeline(file)
        #expect(r.error == nil, "\(String(describing: r.error)) \(r.log)")
        let px = try SeamTests.pixels(folder + "/out/clear.pmtiles")
        var wrong = 0
        for i in labels.indices {
            let a = px[i * 4 + 3]
            if labels[i] == TestSeries.paperLabel ? a != 0 : a != 255 { wrong += 1 }
        }
        #expect(wrong == 0, "\(wrong) pixels of the composite with the wrong alpha for their kind")
    }

    @Test func aBadColourIsOneLineNamingWhatWouldBeRight() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        try f.image("world.tif")
        let map = PipelineFixtures.worldMap(name: "a")
        let colour = try f.loadError("version: 1\nmaps:\n" + map + "    remove_color: {color: \"#12345\"}\n")
        #expect(
            colour.contains("maps[0].remove_color.color") && colour.contains("'#12345' is not a colour; expected auto or \"#RRGGBB\""), "\(colour)")
        #expect(!colour.contains("\n"))
        let threshold = try f.loadError("version: 1\nmaps:\n" + map + "    remove_color: {threshold: 2}\n")
        #expect(threshold.contains("remove_color.threshold") && threshold.contains("threshold 2.0 is out of range"), "\(threshold)")
        let defaults = try f.loadError("version: 1\nmap_defaults:\n  remove_color: {color: white}\nmaps:\n" + map)
        #expect(defaults.contains("map_defaults.remove_color.color") && defaults.contains("'white' is not a colour"), "\(defaults)")
        let key = try f.loadError("version: 1\nmaps:\n" + map + "    remove_color: {colour: auto}\n")
        #expect(key.contains("remove_color.colour") && key.contains("color"), "\(key)")
    }
}
