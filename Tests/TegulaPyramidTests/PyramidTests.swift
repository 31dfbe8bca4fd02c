import Foundation
import TegulaCodec
import TegulaGDAL
import TegulaGeometry
import TegulaTestSupport
import TegulaTileset
import TegulaWarp
import Testing

@testable import TegulaPyramid

/// The pyramid against gdal2tiles's grid, a whole-image warp, and itself in every bundle form.
@Suite(.timeLimit(.minutes(20)))
struct PyramidTests {
    @Test func tileSetMatchesGdal2tilesGrid() throws {
        let dir = try TemporaryFolder.make("pyr")
        defer { try? FileManager.default.removeItem(at: dir) }
        let src = try PyramidFixtures.geotiff(in: dir)
        let ours = dir.appendingPathComponent("ours").path
        var job = TileJob(source: try PyramidFixtures.source(src), output: ours, name: "t")
        job.settings = try TileSettings(zooms: ZoomRequest(min: 3, max: 7)!)
        let stats = try job.run()
        #expect(stats.tilesWritten > 50)
        let g2t = dir.appendingPathComponent("g2t").path
        let r = try ProgramRun.run("gdal2tiles.py", ["--xyz", "-q", "-z", "3-7", "--processes=1", src, g2t])
        #expect(r.status == 0, "\(r.stderr)")
        let a = try PyramidFixtures.tiles(in: ours), b = try PyramidFixtures.tiles(in: g2t)
        // gdal2tiles also writes fully transparent edge tiles; compare the tiles with content.
        var withContent = Set<String>()
        for (k, v) in b where try PyramidFixtures.rgba(v).enumerated().contains(where: { $0.offset % 4 == 3 && $0.element > 0 }) {
            withContent.insert(k)
        }
        let missing = withContent.subtracting(a.keys)
        let extra = Set(a.keys).subtracting(b.keys)
        #expect(missing.isEmpty, "tiles with content in gdal2tiles but not ours: \(missing.sorted().prefix(5))")
        #expect(extra.isEmpty, "tiles outside gdal2tiles's grid: \(extra.sorted().prefix(5))")
        #expect(withContent.count > 50)
    }

    @Test func tilesAreSeamlessWithAWholeImageWarp() throws {
        let dir = try TemporaryFolder.make("pyr")
        defer { try? FileManager.default.removeItem(at: dir) }
        let src = try PyramidFixtures.geotiff(in: dir)
        let source = try PyramidFixtures.source(src)
        let folder = dir.appendingPathComponent("tiles").path
        var job = TileJob(source: source, output: folder, name: "t")
        job.settings = try TileSettings(zooms: ZoomRequest(min: 6, max: 7)!)
        _ = try job.run()
        let warped = dir.appendingPathComponent("warp.tif").path
        let result = try WarpJob(source: source, zoom: 7, jobs: 2).run(output: warped)
        let ds = try Dataset(path: warped)
        let res = WebMercator.resolution(zoom: 7)
        let col0 = Int(((result.geoTransform[0] + WebMercator.halfCircumference) / res).rounded())
        let row0 = Int(((WebMercator.halfCircumference - result.geoTransform[3]) / res).rounded())
        var worst = 0, compared = 0
        for (key, data) in try PyramidFixtures.tiles(in: folder) where key.hasPrefix("7/") {
            let p = key.split(separator: "/").map { Int($0)! }
            let tile = try PyramidFixtures.rgba(data)
            // Compare the tile's edge rows and columns with the whole warp at the same pixels.
            for j in 0..<256 {
                for i in 0..<256 where i == 0 || j == 0 || i == 255 || j == 255 {
                    let gx = p[1] * 256 + i - col0, gy = p[2] * 256 + j - row0
                    guard gx >= 0, gy >= 0, gx < ds.width, gy < ds.height else { continue }
                    var w = [UInt8](repeating: 0, count: 4)
                    try w.withUnsafeMutableBufferPointer {
                        try ds.readBytes(x: gx, y: gy, width: 1, height: 1, bands: [1, 2, 3, 4], into: $0.baseAddress!)
                    }
                    guard w[3] == 255, tile[(j * 256 + i) * 4 + 3] == 255 else { continue }
                    for c in 0..<3 { worst = max(worst, abs(Int(w[c]) - Int(tile[(j * 256 + i) * 4 + c]))) }
                    compared += 1
                }
            }
        }
        #expect(compared > 1000)
        #expect(worst <= 1, "edge pixels differ from the whole-image warp by up to \(worst)")
    }

    @Test func opaqueTilesAreRGBAndEmptyOnesAreNotWritten() throws {
        let dir = try TemporaryFolder.make("pyr")
        defer { try? FileManager.default.removeItem(at: dir) }
        let src = try PyramidFixtures.geotiff(in: dir)
        let folder = dir.appendingPathComponent("tiles").path
        var job = TileJob(source: try PyramidFixtures.source(src), output: folder, name: "t")
        job.settings = try TileSettings(zooms: ZoomRequest(min: 7, max: 7)!)
        let stats = try job.run()
        var rgb = 0, rgba = 0
        let written = try PyramidFixtures.tiles(in: folder)
        for (_, data) in written {
            // PNG colour type: byte 25 of the file (IHDR).
            let type = data[25]
            if type == 2 { rgb += 1 } else if type == 6 { rgba += 1 }
            let px = try PyramidFixtures.rgba(data)
            #expect(stride(from: 3, to: px.count, by: 4).contains { px[$0] > 0 })
            if type == 6 { #expect(stride(from: 3, to: px.count, by: 4).contains { px[$0] < 255 }) }
        }
        #expect(rgb > 0 && rgba > 0)
        // Every position is accounted for once: a file written or counted empty, none both.
        #expect(stats.tilesWritten == written.count)
        #expect(stats.tilesWritten + stats.tilesEmpty == stats.positionsDone, "\(stats)")
    }

    @Test func bundlesHoldTheSamePixelsAsTheFolder() throws {
        let dir = try TemporaryFolder.make("pyr")
        defer { try? FileManager.default.removeItem(at: dir) }
        let src = try PyramidFixtures.geotiff(in: dir)
        let source = try PyramidFixtures.source(src)
        var outputs: [String: String] = [:]
        for (kind, name) in [("folder", "tiles"), ("mbtiles", "t.mbtiles"), ("pmtiles", "t.pmtiles")] {
            let out = dir.appendingPathComponent(name).path
            var job = TileJob(source: source, output: out, name: "t")
            job.settings = try TileSettings(zooms: ZoomRequest(min: 4, max: 6)!)
            _ = try job.run()
            outputs[kind] = out
        }
        let folder = try PyramidFixtures.tiles(in: outputs["folder"]!)
        #expect(folder.count > 10)
        // MBTiles read back with the sqlite3 command-line tool (an independent reader).
        let text = try ProgramRun.output("sqlite3", [outputs["mbtiles"]!, "select zoom_level, tile_column, tile_row, hex(tile_data) from tiles"])
        var mb: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let f = line.split(separator: "|")
            let z = Int(f[0])!, x = Int(f[1])!, tmsY = Int(f[2])!
            mb["\(z)/\(x)/\((1 << z) - 1 - tmsY)"] = String(f[3])
        }
        #expect(Set(mb.keys) == Set(folder.keys))
        for (k, v) in folder { #expect(mb[k] == v.map { String(format: "%02X", $0) }.joined(), "\(k)") }
        // PMTiles through our reader, and the same bytes.
        let pm = try Tileset.openReader(at: outputs["pmtiles"]!)
        for (k, v) in folder {
            let p = k.split(separator: "/").map { Int($0)! }
            #expect(try pm.tile(Tile(x: p[1], y: p[2], z: p[0])) == [UInt8](v), "\(k)")
        }
        #expect(pm.metadata.zooms.min == 4 && pm.metadata.zooms.max == 6)
    }

    @Test func resumeAfterKillGivesTheSameTiles() throws {
        let dir = try TemporaryFolder.make("pyr")
        defer { try? FileManager.default.removeItem(at: dir) }
        let src = try PyramidFixtures.geotiff(in: dir)
        let clean = dir.appendingPathComponent("clean").path
        let killed = dir.appendingPathComponent("killed").path
        let args = ["tile", src, "--zoom", "3-9", "--jobs", "1", "--quiet"]
        var r = try ProgramRun.run(try PyramidFixtures.tegula, args + ["-o", clean])
        #expect(r.status == 0, "\(r.stderr)")
        // Start again, kill -9 once some tiles exist.
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try PyramidFixtures.tegula)
        p.environment = ProgramRun.childEnvironment()
        p.arguments = args + ["-o", killed]
        p.standardError = FileHandle.nullDevice
        try p.run()
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if let n = try? PyramidFixtures.tiles(in: killed).count, n > 20 { break }
            usleep(20_000)
        }
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        let partial = try PyramidFixtures.tiles(in: killed)
        let full = try PyramidFixtures.tiles(in: clean)
        #expect(partial.count < full.count, "the run finished before the kill; make the job bigger")
        // No truncated tile: everything present decodes.
        for (_, v) in partial { _ = try PNGDecoder.decode([UInt8](v)) }
        r = try ProgramRun.run(try PyramidFixtures.tegula, args + ["-o", killed, "--resume"])
        #expect(r.status == 0, "\(r.stderr)")
        let resumed = try PyramidFixtures.tiles(in: killed)
        #expect(resumed == full)
    }

    @Test func refusesAnOutputThatIsNotATileset() throws {
        let dir = try TemporaryFolder.make("pyr")
        defer { try? FileManager.default.removeItem(at: dir) }
        let src = try PyramidFixtures.geotiff(in: dir)
        let precious = dir.appendingPathComponent("precious")
        try FileManager.default.createDirectory(at: precious, withIntermediateDirectories: true)
        try Data("keep me".utf8).write(to: precious.appendingPathComponent("notes.txt"))
        let file = dir.appendingPathComponent("doc.mbtiles")
        try Data("not sqlite".utf8).write(to: file)
        for out in [precious.path, file.path] {
            let r = try ProgramRun.run(try PyramidFixtures.tegula, ["tile", src, "-o", out, "--zoom", "5", "--quiet"])
            #expect(r.status != 0)
            #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        }
        #expect(try String(contentsOf: precious.appendingPathComponent("notes.txt"), encoding: .utf8) == "keep me")
        #expect(try FileManager.default.contentsOfDirectory(atPath: precious.path) == ["notes.txt"])
        #expect(try Data(contentsOf: file) == Data("not sqlite".utf8))
    }

    @Test func downsamplingUsesPremultipliedAlpha() {
        // A red opaque pixel beside three transparent black ones: the parent is red, 1/4 alpha,
        // not a dark red.
        let src: [UInt8] = [
            255, 0, 0, 255, 0, 0, 0, 0,
            0, 0, 0, 0, 0, 0, 0, 0,
        ]
        var dst = [UInt8](repeating: 0, count: 4)
        src.withUnsafeBufferPointer { s in
            dst.withUnsafeMutableBufferPointer { Downsampler.half(s.baseAddress!, width: 2, height: 2, into: $0.baseAddress!) }
        }
        #expect(dst == [255, 0, 0, 64])
    }

    /// Every 2×2 quad, opaque (the vector path), transparent or mixed, against the rule written
    /// out: alpha = round(mean alpha), colour = round(Σ c·α / Σ α), transparent black for none.
    @Test func halvingMatchesTheRuleOnEveryKindOfQuad() {
        let w = 64, h = 32
        var rng = SeededRandom()
        var src = [UInt8](repeating: 0, count: w * h * 4)
        for i in 0..<(w * h) {
            for c in 0..<3 { src[i * 4 + c] = UInt8.random(in: 0...255, using: &rng) }
            // Mostly opaque rows, then rows with transparency and partial alphas.
            let y = i / w
            src[i * 4 + 3] = y < 12 ? 255 : y < 20 ? [0, 255][Int.random(in: 0...1, using: &rng)] : UInt8.random(in: 0...255, using: &rng)
        }
        var dst = [UInt8](repeating: 1, count: w * h)
        src.withUnsafeBufferPointer { s in
            dst.withUnsafeMutableBufferPointer { Downsampler.half(s.baseAddress!, width: w, height: h, into: $0.baseAddress!) }
        }
        for j in 0..<(h / 2) {
            for i in 0..<(w / 2) {
                let taps = [(2 * i, 2 * j), (2 * i + 1, 2 * j), (2 * i, 2 * j + 1), (2 * i + 1, 2 * j + 1)].map { (x, y) in (y * w + x) * 4 }
                let sa = taps.reduce(0) { $0 + Int(src[$1 + 3]) }
                var want: [UInt8] = [0, 0, 0, 0]
                if sa > 0 {
                    for c in 0..<3 { want[c] = UInt8((taps.reduce(0) { $0 + Int(src[$1 + c]) * Int(src[$1 + 3]) } + sa / 2) / sa) }
                    want[3] = UInt8((sa + 2) / 4)
                }
                let o = (j * (w / 2) + i) * 4
                #expect(Array(dst[o..<(o + 4)]) == want, "quad (\(i), \(j)); \(rng.replay)")
            }
        }
    }

    @Test func planCoversTheFootprintAndOrdersBlocksByZCurve() throws {
        let b = Tile(x: 10, y: 12, z: 5).projectedBounds
        let plan = try PyramidPlan(bounds: b, zooms: #require(ZoomRange(min: 2, max: 8)), tilePixels: 256)
        #expect(plan.blockZoom == 6)
        #expect(plan.range(8).x == 80...87 && plan.range(8).y == 96...103)
        #expect(plan.range(2).x == 1...1 && plan.range(2).y == 1...1)
        #expect(plan.blocks.count == 4)
        #expect(plan.blocks == [Tile(x: 20, y: 24, z: 6), Tile(x: 21, y: 24, z: 6), Tile(x: 20, y: 25, z: 6), Tile(x: 21, y: 25, z: 6)])
        #expect(ZoomRange(min: 5, max: 3) == nil, "a crossed range is no range, so no plan can be asked for one")
        let offTheWorld = ProjectedBounds(left: 3e7, bottom: 0, right: 3.1e7, top: 1e6)
        #expect(throws: PyramidError.self) { try PyramidPlan(bounds: offTheWorld, zooms: #require(ZoomRange(min: 2, max: 8)), tilePixels: 256) }
    }
}
