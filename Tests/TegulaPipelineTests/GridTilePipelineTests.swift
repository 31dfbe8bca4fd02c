import Foundation
import TegulaCluster
import TegulaGDAL
import TegulaGeometry
import TegulaSupport
import TegulaTestSupport
import Testing

@testable import TegulaPipeline

/// A pipeline map cut in another tile matrix set (`tile.tms:`) is cut from its scan, resampled
/// once: its tiles are those `tegula tile --tms` cuts from the same scan placed the same way,
/// byte for byte, and match `gdalwarp -r bilinear -et 0` into each tile's bounds (from
/// morecantile, PyPI) in UTM zone 31N. The stage hash reads the set's content: a TMS file
/// edited in place cuts anew; the same set under another file name does not. A collection
/// (`maps_from:`, the set in `map_defaults:`) run as two shards has the tiles of one run; MBTiles
/// and PMTiles outputs are refused at load.
@Suite(.timeLimit(.minutes(20)))
struct GridTilePipelineTests {
    /// The synthetic scan (900 × 600 px, ramps and a checkerboard) placed by bounds in EPSG:3857
    /// at 100 m a pixel, over the Netherlands' coast.
    static let bounds = [556_597.0, 6_740_125, 646_597, 6_800_125]

    /// `z x y` lines in, each tile's xy_bounds out (morecantile's UTM31WGS84Quad).
    static let oracle = """
        import sys, morecantile
        tms = morecantile.tms.get('UTM31WGS84Quad')
        for line in sys.stdin:
            z, x, y = (int(v) for v in line.split())
            print(" ".join(repr(c) for c in tms.xy_bounds(x, y, z)))
        """

    /// Every tile of a folder, keyed `z/x/y`.
    static func tiles(in folder: String) throws -> [String: Data] {
        let fm = FileManager.default
        var out: [String: Data] = [:]
        for z in try fm.contentsOfDirectory(atPath: folder) where Int(z) != nil {
            for x in try fm.contentsOfDirectory(atPath: "\(folder)/\(z)") {
                for f in try fm.contentsOfDirectory(atPath: "\(folder)/\(z)/\(x)") where f.hasSuffix(".png") {
                    out["\(z)/\(x)/\(f.dropLast(4))"] = try Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(z)/\(x)/\(f)"))
                }
            }
        }
        return out
    }

    /// An image GDAL reads (a file's bytes) as 256 × 256 RGBA; three bands are opaque.
    static func rgba(_ data: Data, in dir: String) throws -> [UInt8] {
        let path = "\(dir)/decode-\(UUID()).img"
        try data.write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let d = try Dataset(path: path)
        try #require(d.bandCount == 3 || d.bandCount == 4, "\(d.bandCount) bands")
        var px = [UInt8](repeating: 255, count: 256 * 256 * 4)
        try px.withUnsafeMutableBufferPointer { buffer in
            try d.readBytes(x: 0, y: 0, width: 256, height: 256, bands: Array(1...d.bandCount), pixelSpacing: 4, into: buffer.baseAddress!)
        }
        return px
    }

    /// PSNR over the pixels opaque, with all neighbours within 2 px, in both images.
    struct Agreement: CustomStringConvertible {
        var se = 0.0, n = 0
        var psnr: Double { se == 0 ? 99 : 10 * log10(255 * 255 / (se / Double(max(1, n) * 3))) }
        var description: String { String(format: "PSNR %.1f dB over %d interior px", psnr, n) }

        mutating func add(_ a: [UInt8], _ b: [UInt8]) {
            func opaque(_ x: Int, _ y: Int) -> Bool {
                x >= 0 && y >= 0 && x < 256 && y < 256 && a[(y * 256 + x) * 4 + 3] == 255 && b[(y * 256 + x) * 4 + 3] == 255
            }
            for y in 0..<256 {
                for x in 0..<256 where (-2...2).allSatisfy({ dy in (-2...2).allSatisfy { dx in opaque(x + dx, y + dy) } }) {
                    n += 1
                    for c in 0..<3 { let d = Double(a[(y * 256 + x) * 4 + c]) - Double(b[(y * 256 + x) * 4 + c]); se += d * d }
                }
            }
        }
    }

    /// The scan in the pipeline's folder, and a copy placed by gdal_translate for the oracles.
    static func scans(in f: PipelineFixtures) throws -> (scan: String, placed: String) {
        let scan = f.folder + "/scan.tif", placed = f.folder + "/placed.tif"
        try SyntheticGeoTIFF.write(to: scan)
        let b = bounds
        let r = try ProgramRun.run(
            "gdal_translate", ["-q", "-a_srs", "EPSG:3857", "-a_ullr"] + [b[0], b[3], b[2], b[1]].map { "\($0)" } + [scan, placed])
        try #require(r.status == 0, "\(r.stderr)")
        return (scan, placed)
    }

    /// One map of `scan.tif` placed by ``bounds``, cut in `tms` at `zooms`.
    static func pipeline(tms: String, zooms: String) -> String {
        """
        version: 1
        maps:
          - name: coast
            input: scan.tif
            georeference:
              bounds: [\(bounds.map { "\($0)" }.joined(separator: ", "))]
              srs: EPSG:3857
            tile: {\(zooms), tms: \(tms)}
            output: out/coast

        """
    }

    /// Moves every matrix's point of origin `dx` along x in a TMS JSON file, as a person edits it.
    static func shiftOrigins(ofFile path: String, by dx: Double) throws {
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        let matrices = try #require(json["tileMatrices"] as? [[String: Any]])
        json["tileMatrices"] = try matrices.map { m in
            var m = m
            let origin = try #require(m["pointOfOrigin"] as? [Double])
            m["pointOfOrigin"] = [origin[0] + dx, origin[1]]
            return m
        }
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: path))
    }

    @Test func aMapInUTM31IsCutFromItsScanAsTegulaTileCutsItAndMatchesGdalwarp() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        let (_, placed) = try Self.scans(in: f)
        let run = try runPipeline(try f.pipeline(Self.pipeline(tms: "UTM31WGS84Quad", zooms: "min_zoom: 12, max_zoom: 12")))
        try #require(run.error == nil, "\(String(describing: run.error))")
        let ours = try Self.tiles(in: f.folder + "/out/coast")
        #expect(ours.count >= 12, "\(ours.keys.sorted())")

        let cli = try ProgramRun.run(
            try BuiltTegula.path(), ["tile", placed, "-o", f.folder + "/cli", "--tms", "UTM31WGS84Quad", "--zoom", "12", "--quiet"])
        try #require(cli.status == 0, "\(cli.stderr)")
        let theirs = try Self.tiles(in: f.folder + "/cli")
        #expect(ours.keys.sorted() == theirs.keys.sorted())
        let differing = ours.keys.filter { ours[$0] != theirs[$0] }
        #expect(differing.isEmpty, "\(differing.count) of \(ours.count) tiles differ from tegula tile --tms: \(differing.sorted().prefix(5))")

        let keys = ours.keys.sorted()
        let lines = keys.map { $0.replacingOccurrences(of: "/", with: " ") }.joined(separator: "\n") + "\n"
        let answer = try ProgramRun.run("python3", ["-c", Self.oracle], stdin: lines)
        try #require(answer.status == 0, "morecantile: \(answer.stderr.suffix(600))")
        let boxes = answer.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        try #require(boxes.count == keys.count)
        var agreement = Agreement()
        for (key, box) in zip(keys, boxes) {
            let out = "\(f.folder)/oracle-\(UUID()).tif"
            let r = try ProgramRun.run(
                "gdalwarp",
                ["-q", "-t_srs", "EPSG:32631", "-te"] + box + ["-ts", "256", "256", "-r", "bilinear", "-et", "0", "-dstalpha", placed, out])
            try #require(r.status == 0, "gdalwarp: \(r.stderr)")
            agreement.add(try Self.rgba(ours[key]!, in: f.folder), try Self.rgba(try Data(contentsOf: URL(fileURLWithPath: out)), in: f.folder))
        }
        print("pipeline tile.tms UTM31WGS84Quad zoom 12 (\(keys.count) tiles) vs gdalwarp -r bilinear -et 0: \(agreement)")
        #expect(agreement.n > 200_000 && agreement.psnr >= 45, "\(agreement)")
    }

    @Test func aTMSFileEditedInPlaceCutsAnewAndTheSameSetUnderAnotherNameDoesNot() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        _ = try Self.scans(in: f)
        let document = try TileMatrixSet.document(named: "WorldCRS84Quad")
        let grid = f.folder + "/grid.json"
        try Data(try JSONStyle.readable.encode(document)).write(to: URL(fileURLWithPath: grid))
        let path = try f.pipeline(Self.pipeline(tms: "grid.json", zooms: "min_zoom: 5, max_zoom: 6"))
        let out = f.folder + "/out/coast"
        try #require(try runPipeline(path).error == nil)
        let first = try Self.tiles(in: out)

        // The same set under another name: nothing to cut again, the same tiles.
        try FileManager.default.copyItem(atPath: grid, toPath: f.folder + "/same.json")
        try f.pipeline(Self.pipeline(tms: "same.json", zooms: "min_zoom: 5, max_zoom: 6"))
        let renamed = try runPipeline(path)
        let tileStage = renamed.results.flatMap(\.outcomes).first { $0.stage == .tile }
        #expect(tileStage?.skipped == true, "\(renamed.log)")
        #expect(try Self.tiles(in: out) == first)

        // The file edited in place: the set is another (its origins 0.003° east), the stage runs
        // again and writes its tiles and its tms.json.
        try Self.shiftOrigins(ofFile: f.folder + "/same.json", by: 0.003)
        let edited = try runPipeline(path)
        #expect(edited.results.flatMap(\.outcomes).first { $0.stage == .tile }?.skipped == false, "\(edited.log)")
        #expect(try Self.tiles(in: out) != first)
        #expect(try TileMatrixSet(argument: out + "/tms.json") == TileMatrixSet(argument: f.folder + "/same.json"))
    }

    @Test func aCollectionInWorldCRS84QuadRunAsTwoShardsHasTheTilesOfOneRun() throws {
        let folder = try TemporaryFolder.make("grid-shards").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try TestCollection.make(in: folder, sheets: 4, upsample: 2, maxZoom: 5)
        func pipeline(_ name: String, out: String) throws -> String {
            let text = """
                version: 1
                maps_from: sheets.csv
                map_defaults:
                  georeference: {transform: polynomial1}
                  tile: {min_zoom: 3, max_zoom: 5, tms: WorldCRS84Quad}
                  output: \(out)/{name}
                work: .tegula/\(out)

                """
            try text.write(toFile: "\(folder)/\(name)", atomically: true, encoding: .utf8)
            return "\(folder)/\(name)"
        }
        let one = try runPipeline(try pipeline("one.yml", out: "one"))
        try #require(one.error == nil, "\(String(describing: one.error))")
        let sharded = try pipeline("sharded.yml", out: "sharded")
        let ran = try (0..<2).map { i in
            try PipelineRunner(
                pipeline: try Pipeline.load(path: sharded), options: RunOptions(jobs: 2, shard: Shard(index: i, count: 2)), log: { _ in }
            ).run().map(\.name)
        }
        #expect(Set(ran[0]).isDisjoint(with: ran[1]) && ran[0].count + ran[1].count == 4, "\(ran)")
        for m in one.results.map(\.name) {
            let (a, b) = ("\(folder)/one/\(m)", "\(folder)/sharded/\(m)")
            #expect(try TilesetDigest.of(a).digest == TilesetDigest.of(b).digest, "\(m)")
            #expect(try TileMatrixSet(argument: a + "/tms.json").id == "WorldCRS84Quad", "\(m)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: a + "/tms.json")) == Data(contentsOf: URL(fileURLWithPath: b + "/tms.json")))
        }
    }

    @Test(arguments: ["out/world.pmtiles", "out/world.mbtiles"])
    func aWebMercatorFormatIsRefusedAtLoadForAnotherSet(output: String) throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        try f.image("world.tif")
        let error = try f.loadError("version: 1\nmaps:\n" + PipelineFixtures.worldMap(output: output, tile: "{tms: WorldCRS84Quad}"))
        #expect(error.contains("output") && error.contains("WebMercatorQuad tiles only") && error.contains("GeoPackage"), "\(error)")
        #expect(!FileManager.default.fileExists(atPath: f.folder + "/" + output))
    }
}
