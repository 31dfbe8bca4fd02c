import Foundation
import TegulaCluster
import TegulaCodec
import TegulaGeometry
import TegulaTestSupport
import TegulaTileset
import Testing

@testable import TegulaPipeline

/// The composite's seams on a generated 4 × 4 series (``TestSeries``: sheets cut from one
/// source on the max zoom's own pixel grid, each 4 levels lighter or darker than its
/// neighbours): `feather` stays within a few levels of the source across every sheet boundary
/// with no step, `cut` switches sheets at the midline between the masks, `over` is what it was,
/// and a sharded feather equals the single run.
@Suite(.serialized) struct SeamTests {
    /// The series and a pipeline over it with `composite` lines added under `composite:`.
    static func pipeline(_ series: TestSeries, _ name: String, composite: String = "", defaults: String = "") throws -> String {
        let path = series.folder + "/\(name).yml"
        try
            ("version: 1\nwork: .tegula/\(name)\n" + defaults + "maps:\n" + TestSeries.allMaps
            + "composite:\n  output: out/\(name).pmtiles\n  tile: {min_zoom: 7, max_zoom: \(TestSeries.zoom)}\n" + composite)
            .write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The composite's max-zoom pixels over the source (RGBA, source rows), from its tiles.
    static func pixels(_ tileset: String) throws -> [UInt8] {
        let reader = try Tileset.openReader(at: tileset)
        let side = TestSeries.side, z = TestSeries.zoom
        var out = [UInt8](repeating: 0, count: side * side * 4)
        var tiles: [Tile: RGBAImage] = [:]
        for y in 0..<side {
            for x in 0..<side {
                let gx = TestSeries.originX + x, gy = TestSeries.originY + y
                let t = Tile(x: gx / 256, y: gy / 256, z: z)
                if tiles[t] == nil {
                    tiles[t] = try reader.tile(t).map { try TileDecoder.decode($0).rgba } ?? RGBAImage(width: 256, height: 256)
                }
                let image = tiles[t]!, p = ((gy % 256) * 256 + gx % 256) * 4
                for k in 0..<4 { out[(y * side + x) * 4 + k] = image.pixels[p + k] }
            }
        }
        return out
    }

    /// The composite less the source, per channel, at every pixel of the series.
    struct Difference {
        let d: [Int]  // side × side × 3
        let side = TestSeries.side

        init(_ composite: [UInt8], _ source: [UInt8]) {
            d = (0..<(TestSeries.side * TestSeries.side * 3)).map { i in Int(composite[i / 3 * 4 + i % 3]) - Int(source[i]) }
        }

        /// The largest |difference|, and the largest jump of it between neighbours across a
        /// sheet boundary (over the overlap bands and a pixel beyond them), away from the
        /// series' outer edge by half an overlap: there every sheet is near its own mask edge,
        /// the weights even out and the band narrows to the edge's distance (a step of up to
        /// half the tones' difference on the outermost pixels).
        var figures: (largest: Int, step: Int) {
            let largest = d.map(abs).max() ?? 0
            var step = 0
            let bands = (1..<TestSeries.sheets).map { TestSeries.mapStart($0) }
            let half = TestSeries.overlap / 2
            for a in half..<(side - half) {
                for b0 in bands {
                    for b in (b0 - 1)...(b0 + TestSeries.overlap) {
                        for k in 0..<3 {
                            step = max(step, abs(d[(a * side + b + 1) * 3 + k] - d[(a * side + b) * 3 + k]))  // across a column boundary
                            step = max(step, abs(d[((b + 1) * side + a) * 3 + k] - d[(b * side + a) * 3 + k]))  // across a row boundary
                        }
                    }
                }
            }
            return (largest, step)
        }
    }

    @Test func featherKeepsEverySheetBoundaryWithinAFewLevelsOfTheSourceWithoutAStep() throws {
        let folder = try TemporaryFolder.make("seam-feather").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let series = try TestSeries(in: folder)
        let source = try series.source().rgb
        let over = try Self.pipeline(series, "over")
        let feather = try Self.pipeline(series, "feather", composite: "  seam: {feather: \(TestSeries.overlap)}\n")
        for file in [over, feather] {
            let r = try runPipeline(file)
            #expect(r.error == nil, "\(String(describing: r.error)) \(r.log)")
        }
        let stacked = Difference(try Self.pixels(folder + "/out/over.pmtiles"), source).figures
        let blended = Difference(try Self.pixels(folder + "/out/feather.pmtiles"), source).figures
        print(
            "seams of a 4×4 series with ±4-level sheet tones: over |Δ| ≤ \(stacked.largest), step \(stacked.step); "
                + "feather \(TestSeries.overlap) px |Δ| ≤ \(blended.largest), step \(blended.step)")
        // Every pixel within the sheets' own tone of the source, and no step: the 8-level jump
        // between neighbouring sheets spread over the 16-px overlap (half a level a pixel).
        #expect(blended.largest <= 4)
        #expect(blended.step <= 1)
        // The stacked composite shows the jump where each later sheet begins.
        #expect(stacked.largest <= 4 && stacked.step >= 8)
        // Every pixel is opaque: the union of opaque sheets.
        let alpha = try Self.pixels(folder + "/out/feather.pmtiles")
        #expect(stride(from: 3, to: alpha.count, by: 4).allSatisfy { alpha[$0] == 255 })
    }

    @Test func cutTakesEachPixelFromTheSheetWhoseMaskEdgeIsFarthest() throws {
        let folder = try TemporaryFolder.make("seam-cut").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let series = try TestSeries(in: folder)
        let source = try series.source().rgb
        let file = try Self.pipeline(series, "cut", composite: "  seam: cut\n")
        let r = try runPipeline(file)
        #expect(r.error == nil, "\(String(describing: r.error)) \(r.log)")
        let d = Difference(try Self.pixels(folder + "/out/cut.pmtiles"), source).d
        // The midline of an overlap is the boundary of the sheets' pitch cells (8 px into each
        // 16-px overlap): each pixel is its cell's sheet's, tone and all.
        let half = TestSeries.overlap / 2, side = TestSeries.side
        var wrong = 0
        // Away from the series' outer edge by half an overlap (there the sheets' outer mask edges
        // are as near as the midline: the upper sheet takes the tie).
        for y in half..<(side - half) {
            for x in half..<(side - half) {
                let r = min(max((y - half) / TestSeries.pitch, 0), TestSeries.sheets - 1)
                let c = min(max((x - half) / TestSeries.pitch, 0), TestSeries.sheets - 1)
                let want = TestSeries.tone(r, c)
                for k in 0..<3 where d[(y * side + x) * 3 + k] != want {
                    // Only where the tone clips at 0 or 255 may it differ.
                    if !(source[(y * side + x) * 3 + k] < 4 || source[(y * side + x) * 3 + k] > 251) { wrong += 1 }
                }
            }
        }
        #expect(wrong == 0, "\(wrong) channel values not from the sheet whose mask edge is farthest")
    }

    @Test func orderPutsTheNamedSheetsOnTop() throws {
        let folder = try TemporaryFolder.make("seam-order").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let series = try TestSeries(in: folder)
        let source = try series.source().rgb
        // sheet-0-0 (lighter) last in the stack: it covers its whole mask, overlaps included.
        let file = try Self.pipeline(series, "order", composite: "  order: [sheet-0-0]\n")
        let r = try runPipeline(file)
        #expect(r.error == nil, "\(String(describing: r.error)) \(r.log)")
        let d = Difference(try Self.pixels(folder + "/out/order.pmtiles"), source).d
        let side = TestSeries.side, m = TestSeries.mapSide
        // Inside its mask every pixel has its tone (+4); just beyond, its neighbours' (−4).
        #expect((0..<m).allSatisfy { d[((m - 1) * side + $0) * 3] == 4 && d[($0 * side + m - 1) * 3] == 4 })
        #expect(d[(10 * side + m) * 3] == -4 && d[(m * side + 10) * 3] == -4)
        // In the default order the later sheet-0-1 lies over the overlap.
        let plain = try Self.pipeline(series, "plain")
        #expect(try runPipeline(plain).error == nil)
        let e = Difference(try Self.pixels(folder + "/out/plain.pmtiles"), source).d
        #expect(e[(10 * side + m - 1) * 3] == -4)
    }

    @Test func shardedFeatherEqualsTheSingleRunByteForByte() throws {
        let folder = try TemporaryFolder.make("seam-shards").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let series = try TestSeries(in: folder)
        let file = try Self.pipeline(series, "feather", composite: "  seam: {feather: 12}\n")
        #expect(try runPipeline(file).error == nil)
        let output = folder + "/out/feather.pmtiles"
        let single = try TilesetDigest.of(output)
        #expect(single.tiles > 10)
        for n in [2, 3] {
            let plan = ShardPlan(pipeline: try Pipeline.load(path: file), count: n, jobs: 2)
            let split = try #require(plan.composite)
            // Each shard builds blocks of its own: the blended ones are split between them.
            #expect((0..<n).filter { !split.blockRange(of: $0).isEmpty }.count >= 2, "\(plan.text)")
            try FileManager.default.removeItem(atPath: output)
            for i in 0..<n {
                let runner = PipelineRunner(
                    pipeline: try Pipeline.load(path: file),
                    options: RunOptions(jobs: 2, shard: Shard(index: i, count: n)), log: { _ in })
                try runner.run()
            }
            try PipelineRunner(pipeline: try Pipeline.load(path: file), options: RunOptions(jobs: 2), log: { _ in }).reduce(shards: nil)
            let sharded = try TilesetDigest.of(output)
            #expect(sharded.digest == single.digest && sharded.tiles == single.tiles, "\(n) shards")
        }
    }

    @Test func anExplicitSeamOverIsTheCompositeOfBeforeAndIsNotRebuilt() throws {
        let folder = try TemporaryFolder.make("seam-over").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let series = try TestSeries(in: folder)
        let file = try Self.pipeline(series, "over")
        #expect(try runPipeline(file).error == nil)
        let before = try TilesetDigest.of(folder + "/out/over.pmtiles")
        // `seam: over` and `order: file` are the defaults: same plan hash, so nothing reruns.
        try (try String(contentsOfFile: file, encoding: .utf8) + "  seam: over\n  order: file\n").write(
            toFile: file, atomically: true, encoding: .utf8)
        let again = try runPipeline(file)
        #expect(again.log.contains { $0.hasPrefix("composite:  skipped (unchanged)") }, "\(again.log)")
        // A seam that is not the default is another composite.
        try expectRebuilt(file, replacing: "seam: over", with: "seam: cut", output: folder + "/out/over.pmtiles", before: before.digest)
    }

    @Test func badSeamsAndOrdersAreOneLineNamingWhatWouldBeRight() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        let load = f.compositeLoadError
        let blend = try load("  seam: blend\n")
        #expect(blend.contains("composite.seam") && blend.contains("'blend' is not a seam; expected over, cut or {feather: PX}"), "\(blend)")
        #expect(!blend.contains("\n"))
        let zero = try load("  seam: {feather: 0}\n")
        #expect(zero.contains("composite.seam.feather") && zero.contains("feather 0.0 is out of range"), "\(zero)")
        let key = try load("  seam: {blur: 3}\n")
        #expect(key.contains("'blur' is not a seam"), "\(key)")
        let name = try load("  order: [b]\n")
        #expect(name.contains("composite.order") && name.contains("'b' is not a map of this pipeline"), "\(name)")
        let twice = try load("  order: [a, a]\n")
        #expect(twice.contains("'a' is named twice"), "\(twice)")
        let word = try load("  order: newest\n")
        #expect(word.contains("'newest' is not a stacking order; expected file, reverse or a list of map names"), "\(word)")
    }
}
