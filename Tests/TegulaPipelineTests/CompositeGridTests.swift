import Foundation
import TegulaCluster
import TegulaComposite
import TegulaGeometry
import TegulaTestSupport
import Testing

@testable import TegulaPipeline

/// A composite cut in another tile matrix set (`composite.tile.tms:`): two overlapping crops of
/// one scan composited in UTM zone 31N hold, at the max zoom, what `gdalwarp -r bilinear -et 0`
/// makes of the whole scan in each tile's bounds (from morecantile, PyPI), and the set's
/// `tms.json`; with `seam: feather` and `tone: match` two shards and their reduce write the
/// tiles of one run; in WorldCRS84Quad (2 × 1 tiles at zoom 0, named as zoom 1 of the ids'
/// quadtree) the same, one run and two shards alike; a set whose zooms do not nest as a
/// quadtree is refused in one line (and by the dry run). A map
/// cut in another set has no warp stage: its work folder holds no `warped.tif`, and it resumes
/// (skipped when unchanged, `--stage tile` alone from the recorded georeference).
@Suite(.timeLimit(.minutes(20)))
struct CompositeGridTests {
    /// Two crops of the scan, `west.tif` (columns 0–549) and `east.tif` (350–899), placed by
    /// their bounds at 100 m a pixel, as maps of a composite in `tms` with `extra` keys under
    /// `composite:`; `east` darkened to `eastScale` of its levels (1: as cut).
    static func pipeline(in f: PipelineFixtures, tms: String, zooms: String, extra: String = "", eastScale: Double = 1) throws -> String {
        _ = try GridTilePipelineTests.scans(in: f)
        let b = GridTilePipelineTests.bounds
        for (name, column, scale) in [("west", 0, 1.0), ("east", 350, eastScale)] {
            var args = ["-q", "-srcwin", "\(column)", "0", "550", "600"]
            if scale != 1 { args += ["-scale", "0", "255", "0", "\(Int(255 * scale))"] }
            let r = try ProgramRun.run("gdal_translate", args + [f.folder + "/scan.tif", f.folder + "/\(name).tif"])
            try #require(r.status == 0, "\(r.stderr)")
        }
        func map(_ name: String, column: Double) -> String {
            let left = b[0] + column * 100
            return """
                  - name: \(name)
                    input: \(name).tif
                    georeference: {bounds: [\(left), \(b[1]), \(left + 55_000), \(b[3])], srs: EPSG:3857}

                """
        }
        return try f.pipeline(
            "version: 1\nmaps:\n" + map("west", column: 0) + map("east", column: 350)
                + "composite:\n  output: out/coast\n  tile: {\(zooms), tms: \(tms)}\n" + extra)
    }

    /// `z x y` lines in, each tile's xy_bounds in the set named by the first argument out (morecantile).
    static let oracle = """
        import sys, morecantile
        tms = morecantile.tms.get(sys.argv[1])
        for line in sys.stdin:
            z, x, y = (int(v) for v in line.split())
            print(" ".join(repr(c) for c in tms.xy_bounds(x, y, z)))
        """

    /// How the tiles of `zoom` in `tiles` (keyed `z/x/y`) agree with `gdalwarp -r bilinear -et 0`
    /// of the whole scan (`placed.tif`) into `crs` within each tile's bounds in `tms`, and how many
    /// tiles that zoom has.
    static func agreement(_ tiles: [String: Data], zoom: Int, tms: String, crs: String, in f: PipelineFixtures) throws -> (
        tiles: Int, agreement: GridTilePipelineTests.Agreement
    ) {
        let keys = tiles.keys.filter { $0.hasPrefix("\(zoom)/") }.sorted()
        let lines = keys.map { $0.replacingOccurrences(of: "/", with: " ") }.joined(separator: "\n") + "\n"
        let answer = try ProgramRun.run("python3", ["-c", oracle, tms], stdin: lines)
        try #require(answer.status == 0, "morecantile: \(answer.stderr.suffix(600))")
        let boxes = answer.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        try #require(boxes.count == keys.count)
        var agreement = GridTilePipelineTests.Agreement()
        for (key, box) in zip(keys, boxes) {
            let oracle = "\(f.folder)/oracle-\(UUID()).tif"
            let r = try ProgramRun.run(
                "gdalwarp",
                ["-q", "-t_srs", crs, "-te"] + box
                    + ["-ts", "256", "256", "-r", "bilinear", "-et", "0", "-dstalpha", f.folder + "/placed.tif", oracle])
            try #require(r.status == 0, "gdalwarp: \(r.stderr)")
            agreement.add(
                try GridTilePipelineTests.rgba(tiles[key]!, in: f.folder),
                try GridTilePipelineTests.rgba(try Data(contentsOf: URL(fileURLWithPath: oracle)), in: f.folder))
        }
        return (keys.count, agreement)
    }

    @Test func aCompositeInUTM31MatchesGdalwarpOfTheWholeScanAndCarriesItsSet() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        let run = try runPipeline(try Self.pipeline(in: f, tms: "UTM31WGS84Quad", zooms: "min_zoom: 10, max_zoom: 12"))
        try #require(run.error == nil, "\(String(describing: run.error)) \(run.log)")
        let out = f.folder + "/out/coast"
        let tiles = try GridTilePipelineTests.tiles(in: out)
        #expect(Set(tiles.keys.map { $0.split(separator: "/")[0] }) == ["10", "11", "12"], "\(tiles.keys.sorted())")
        #expect(try TileMatrixSet(argument: out + "/tms.json") == (try TileMatrixSet.named("UTM31WGS84Quad")))
        let (count, agreement) = try Self.agreement(tiles, zoom: 12, tms: "UTM31WGS84Quad", crs: "EPSG:32631", in: f)
        print("composite of 2 maps in UTM31WGS84Quad, zoom 12 (\(count) tiles) vs gdalwarp -r bilinear -et 0 of the scan: \(agreement)")
        #expect(count >= 12 && agreement.n > 200_000 && agreement.psnr >= 45, "\(count) tiles, \(agreement)")
    }

    @Test func aCompositeInWorldCRS84QuadMatchesGdalwarpAndRunAsTwoShardsHasTheTilesOfOneRun() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        // Zoom 10 is 2048 × 1024 tiles, the scan's at columns past 1024: ids name it as the quadtree's zoom 11.
        let file = try Self.pipeline(in: f, tms: "WorldCRS84Quad", zooms: "min_zoom: 6, max_zoom: 10")
        let one = try runPipeline(file)
        try #require(one.error == nil, "\(String(describing: one.error)) \(one.log)")
        let output = f.folder + "/out/coast"
        let tiles = try GridTilePipelineTests.tiles(in: output)
        #expect(Set(tiles.keys.map { $0.split(separator: "/")[0] }) == ["6", "7", "8", "9", "10"], "\(tiles.keys.sorted())")
        #expect(try TileMatrixSet(argument: output + "/tms.json") == (try TileMatrixSet.named("WorldCRS84Quad")))
        let (count, agreement) = try Self.agreement(tiles, zoom: 10, tms: "WorldCRS84Quad", crs: "OGC:CRS84", in: f)
        print("composite of 2 maps in WorldCRS84Quad, zoom 10 (\(count) tiles) vs gdalwarp -r bilinear -et 0 of the scan: \(agreement)")
        #expect(count >= 12 && agreement.n > 200_000 && agreement.psnr >= 45, "\(count) tiles, \(agreement)")

        // Tile by tile (TilesetDigest lists a folder's tiles within 2^z columns, as WebMercatorQuad has them).
        try FileManager.default.removeItem(atPath: output)
        try FileManager.default.removeItem(atPath: f.folder + "/.tegula")
        let plan = ShardPlan(pipeline: try Pipeline.load(path: file), count: 2, jobs: 2)
        let split = try #require(plan.composite)
        #expect(split.layout.ids.depth == 1 && split.cutZoom > 6, "\(plan.text)")
        #expect((0..<2).filter { !split.blockRange(of: $0).isEmpty }.count == 2, "\(plan.text)")
        try ShardTests.sharded(file, 2)
        let sharded = try GridTilePipelineTests.tiles(in: output)
        #expect(sharded == tiles, "\(tiles.count) tiles in one run, \(sharded.count) from two shards")
    }

    @Test func aFeatheredToneMatchedCompositeInUTM31RunAsTwoShardsHasTheTilesOfOneRun() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        let file = try Self.pipeline(
            in: f, tms: "UTM31WGS84Quad", zooms: "min_zoom: 8, max_zoom: 11", extra: "  seam: {feather: 16}\n  tone: match\n", eastScale: 0.8)
        let one = try runPipeline(file)
        try #require(one.error == nil, "\(String(describing: one.error)) \(one.log)")
        #expect(one.log.contains { $0.contains("tone: match, measured on 1 overlaps") }, "\(one.log)")
        let sheets = one.log.filter { $0.hasPrefix("tone: sheet") }.map { $0.split(separator: " ").dropFirst(3).joined(separator: " ") }
        #expect(sheets.count == 2 && sheets[0] != sheets[1], "the darker east sheet corrected apart from the west: \(one.log)")
        let output = f.folder + "/out/coast"
        let single = try TilesetDigest.of(output)
        try FileManager.default.removeItem(atPath: output)
        try FileManager.default.removeItem(atPath: f.folder + "/.tegula")
        let plan = ShardPlan(pipeline: try Pipeline.load(path: file), count: 2, jobs: 2)
        let split = try #require(plan.composite)
        #expect((0..<2).filter { !split.blockRange(of: $0).isEmpty }.count == 2, "\(plan.text)")
        try ShardTests.sharded(file, 2)
        let sharded = try TilesetDigest.of(output)
        #expect(sharded.digest == single.digest && sharded.tiles == single.tiles && single.tiles > 12, "\(single.tiles) vs \(sharded.tiles)")
    }

    @Test func worldCRS84QuadsTilesAreNamedByThePMTilesIdsOfTheQuadtreesNextZoom() throws {
        let world = try #require(QuadtreeIDs(grid: try TileMatrixSet.named("WorldCRS84Quad"), zooms: ZoomRange(min: 0, max: 12)!))
        let utm = try #require(QuadtreeIDs(grid: try TileMatrixSet.named("UTM31WGS84Quad"), zooms: ZoomRange(min: 1, max: 12)!))
        #expect(world.depth == 1 && utm.depth == 0)
        let tiles = [
            Tile(x: 0, y: 0, z: 0), Tile(x: 1, y: 0, z: 0), Tile(x: 3, y: 1, z: 1), Tile(x: 1055, y: 216, z: 10), Tile(x: 8191, y: 4095, z: 12),
        ]
        let lines = tiles.map { "\($0.z + 1) \($0.x) \($0.y)" }.joined(separator: "\n") + "\n"
        let script = "import sys\nfrom pmtiles.tile import zxy_to_tileid\nfor l in sys.stdin: print(zxy_to_tileid(*map(int, l.split())))"
        let answer = try ProgramRun.run("python3", ["-c", script], stdin: lines)
        try #require(answer.status == 0, "pmtiles: \(answer.stderr.suffix(600))")
        #expect(tiles.map { world.id(of: $0) } == answer.stdout.split(separator: "\n").compactMap { UInt64($0) }, "\(answer.stdout)")
        #expect(tiles.map { world.tile(of: world.id(of: $0)) } == tiles)
        #expect(tiles.map { world.hilbert($0, at: 0) } == [0, 3, 3, 3, 3] && world.hilbertEnd(at: 0) == 4)
    }

    @Test func aCompositeInASetWhoseZoomsDoNotNestAsAQuadtreeIsRefusedInOneLine() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        // CanadianNAD83_LCC's cells shrink by 1.67-1.75 a zoom: no zoom is the parent of the next.
        let file = try Self.pipeline(in: f, tms: "CanadianNAD83_LCC", zooms: "min_zoom: 5, max_zoom: 6")
        let dry = PipelinePlan(pipeline: try Pipeline.load(path: file), options: RunOptions(jobs: 2)).text
        let refusal = "zooms 5-6 of CanadianNAD83_LCC do not nest as a quadtree"
        #expect(dry.contains("composite: refused: " + refusal), "\(dry)")
        let run = try runPipeline(file)
        let failure = try #require(run.error as? BatchFailure)
        let error = failure.failures.map(\.message).joined(separator: "; ")
        #expect(failure.failures.map(\.map) == ["composite"] && run.log.contains { $0.contains(error) }, "\(run.log)")
        #expect(error.contains("composite.tile.tms") && error.contains(refusal), "\(error)")
        #expect(!FileManager.default.fileExists(atPath: f.folder + "/out/coast"))
    }

    @Test func aMapInAnotherSetHasNoWarpStageAndResumes() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        _ = try GridTilePipelineTests.scans(in: f)
        let path = try f.pipeline(GridTilePipelineTests.pipeline(tms: "UTM31WGS84Quad", zooms: "min_zoom: 10, max_zoom: 11"))
        let first = try runPipeline(path)
        try #require(first.error == nil, "\(String(describing: first.error))")
        let work = f.folder + "/.tegula/p/coast"
        #expect(first.results.flatMap(\.outcomes).map(\.stage) == [.georeference, .tile], "\(first.log)")
        let files = try FileManager.default.contentsOfDirectory(atPath: work)
        #expect(!files.contains("warped.tif"), "\(files)")
        let tiles = try GridTilePipelineTests.tiles(in: f.folder + "/out/coast")

        let again = try runPipeline(path)
        #expect(again.results.flatMap(\.outcomes).allSatisfy { $0.skipped }, "\(again.log)")
        let alone = try runPipeline(path, RunOptions(stage: .tile, force: true, jobs: 2))
        try #require(alone.error == nil, "\(String(describing: alone.error))")
        #expect(alone.results.flatMap(\.outcomes).map(\.stage) == [.tile] && alone.results.flatMap(\.outcomes).allSatisfy { !$0.skipped })
        #expect(try GridTilePipelineTests.tiles(in: f.folder + "/out/coast") == tiles)
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: work)).contains("warped.tif"))
    }
}
