import Foundation
import TegulaTestSupport
import Testing

/// A pipeline file served on demand (`tegula serve france.yml`: each map rendered tile by tile)
/// beside the composite `tegula run` cut from it (a folder, served as a tileset), read through
/// WMTS by the two clients people use (`scripts/wmts_check.py`: OWSLib's `WebMapTileService`
/// fetching every tile of each layer's limits by KVP GetTile, GDAL's WMTS driver mosaicking every
/// zoom through the RESTful capabilities), each layer against a folder Tegula cut, decoded by GDAL
/// and compared by numpy. Two overlapping crops of the Blue Marble's 0°–6° E, 43°–49° N (180 px,
/// as `OnDemandWMTSCLITests`) with a composite: in WebMercatorQuad, where every zoom of a map on
/// demand must be `tegula tile`'s bytes from its scan; and with `tile.tms: UTM31WGS84Quad` for the
/// maps and the composite, where a map's max zoom must be the run's bytes and the zoom below,
/// which on demand averages the max zoom in one step where the cut halves it, 45 dB or more.
@Suite(.timeLimit(.minutes(20)))
struct PipelineWMTSCLITests {
    /// The counts `wmts_check.py` prints (with `--min-db`, the near ones too); OnDemandWMTSCLITests reads them too.
    struct Counts: Decodable {
        var owslib_tiles: Int
        var missing_404: Int
        var gdal_mosaics: Int
        var sets_known: Int
        var owslib_near: Int?
        var gdal_near: Int?
        var lowest_db: Double?
    }

    /// Writes the two crops (`west.tif`, columns 0–109 of the 180-px scan; `east.tif`, 70–179:
    /// 40 px shared) and a pipeline of them with a composite, each output a folder under `out/`,
    /// cut at `zooms` in `tms` (nil: WebMercatorQuad, the key left out). The scan is laid over
    /// `box` (west, north, east, south in degrees), France unless told. Returns the pipeline's path.
    static func pipeline(in dir: URL, tms: String?, zooms: ClosedRange<Int>, box: [String] = ["0", "49", "6", "43"]) throws -> String {
        let scan = dir.appendingPathComponent("france.tif").path
        _ = try ProgramRun.output(
            "gdal_translate",
            [
                "-q", "-srcwin", "1350", "307", "45", "45", "-outsize", "180", "180", "-r", "bilinear", "-a_srs", "EPSG:4326",
                "-a_ullr",
            ] + box + [BlueMarble.path, scan])
        for (name, column) in [("west", 0), ("east", 70)] {
            _ = try ProgramRun.output(
                "gdal_translate", ["-q", "-srcwin", "\(column)", "0", "110", "180", scan, dir.appendingPathComponent("\(name).tif").path])
        }
        let tile = "{min_zoom: \(zooms.lowerBound), max_zoom: \(zooms.upperBound)" + (tms.map { ", tms: \($0)" } ?? "") + "}"
        let yaml = """
            version: 1
            map_defaults:
              tile: \(tile)
            maps:
              - {name: west, input: west.tif, output: out/west}
              - {name: east, input: east.tif, output: out/east}
            composite:
              output: out/all
              tile: \(tile)

            """
        let file = dir.appendingPathComponent("france.yml").path
        try yaml.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    /// Runs the pipeline, serves it on demand beside its composite's folder, and has
    /// `wmts_check.py` (with `--min-db minDB`, when given) read every layer against a folder: the
    /// composite's own, and for each map `reference(dir, map)`. Returns the counts and the
    /// capabilities document. A `tms` of `bng.json` is written first, by `tegula grid --tms-from
    /// EPSG:27700` over the British National Grid's published extent (`GridCustomCLITests`).
    static func check(
        tms: String?, zooms: ClosedRange<Int>, box: [String] = ["0", "49", "6", "43"], minDB: Double?,
        reference: (URL, String) throws -> String
    ) throws -> (Counts, String) {
        let dir = try TemporaryFolder.make("pipeline-wmts")
        defer { try? FileManager.default.removeItem(at: dir) }
        if tms == "bng.json" {
            let grid = dir.appendingPathComponent("bng.json").path
            let made = try TegulaBinary.run(["grid", "--tms-from", "EPSG:27700", "--extent", "-238375,0,900000,1376256", "--id", "BNG", "-o", grid])
            try #require(made.status == 0, "\(made.stderr)")
        }
        let file = try pipeline(in: dir, tms: tms, zooms: zooms, box: box)
        let run = try TegulaBinary.run(["run", file, "--quiet"])
        try #require(run.status == 0, "\(run.stderr)")
        let all = dir.appendingPathComponent("out/all").path
        let folders = try ["west", "east"].map { ($0, try reference(dir, $0)) } + [("all", all)]
        let server = try LocalHTTPServer.tegula(["serve", file, all])
        defer { server.stop() }
        #expect(server.output.contains("rendering on demand west") && server.output.contains("serving all"), "\(server.output)")
        let floor = minDB.map { ["--min-db", "\($0)"] } ?? []
        let r = try ProgramRun.run(
            try LocalHTTPServer.venv("python3"), [WMTSClientCLITests.check] + floor + [server.base] + folders.map { "\($0.0)=\($0.1)" })
        try #require(r.status == 0, "wmts_check failed: \(r.stderr)")
        let counts = try JSONDecoder().decode(Counts.self, from: Data(r.stdout.utf8))
        // Every file of the three folders fetched by OWSLib, the rest of the limits' rectangles 404;
        // every zoom of each layer mosaicked by GDAL.
        let tiles = try folders.map { try WMTSClientCLITests.files($0.1) }
        let files = tiles.map(\.count).reduce(0, +), rectangles = tiles.map(WMTSClientCLITests.rectangles).reduce(0, +)
        let fetched = counts.owslib_tiles + (counts.owslib_near ?? 0)
        #expect(
            files > 0 && fetched == files && fetched + counts.missing_404 == rectangles, "\(files) files, \(rectangles) in rectangles: \(r.stdout)")
        #expect(counts.gdal_mosaics == 3 * zooms.count, "\(r.stdout)")
        // The layers' one set, its matrices as morecantile has them (GDAL places the mosaics by
        // them), when morecantile ships it.
        #expect(counts.sets_known == (tms == "bng.json" ? 0 : 1), "\(r.stdout)")
        let caps = String(decoding: try server.get("/wmts/1.0.0/WMTSCapabilities.xml").body, as: UTF8.self)
        return (counts, caps)
    }

    /// In WebMercatorQuad the maps on demand are, at every zoom, the bytes `tegula tile` cuts from
    /// each map's scan with the pipeline's zooms (the run itself cuts them from its warp stage's
    /// `warped.tif`, whose pixels differ in a few places).
    @Test func gdalAndOWSLibReadAPipelineServedOnDemandAndItsCompositeTileForTile() throws {
        let (counts, caps) = try Self.check(tms: nil, zooms: 4...6, minDB: nil) { dir, map in
            let cut = dir.appendingPathComponent("cut-\(map)").path
            let r = try TegulaBinary.run(["tile", dir.appendingPathComponent("\(map).tif").path, "-o", cut, "--zoom", "4-6", "--quiet"])
            try #require(r.status == 0, "\(r.stderr)")
            return cut
        }
        #expect(caps.components(separatedBy: "<TileMatrixSet>WebMercatorQuad</TileMatrixSet>").count == 4, "three layers in the set: \(caps)")
        print("pipeline on demand and its composite in WebMercatorQuad: \(counts)")
    }

    /// With `tile.tms: UTM31WGS84Quad` each map on demand is in the set (not Web Mercator), its
    /// max zoom the bytes of the run's folder, cut from the scan as on demand; the zoom below near.
    @Test func gdalAndOWSLibReadAPipelineServedOnDemandInUTM31AndItsCompositeTileForTile() throws {
        let (counts, caps) = try Self.check(tms: "UTM31WGS84Quad", zooms: 5...6, minDB: 45) { dir, map in
            dir.appendingPathComponent("out/\(map)").path
        }
        #expect(caps.components(separatedBy: "<TileMatrixSet>UTM31WGS84Quad</TileMatrixSet>").count == 4, "three layers in the set: \(caps)")
        #expect(caps.contains("<ows:SupportedCRS>urn:ogc:def:crs:EPSG::32631</ows:SupportedCRS>") && !caps.contains("WebMercatorQuad"), "\(caps)")
        #expect(counts.owslib_tiles >= 4 * 3 && (counts.lowest_db ?? .infinity) >= 45, "\(counts)")
        print("pipeline on demand and its composite in UTM31WGS84Quad: \(counts)")
    }

    /// With `tile.tms` a British National Grid file (`bng.json`, a set morecantile does not ship)
    /// and the scan laid over England: the set described with its numbers, easting first.
    @Test func gdalAndOWSLibReadAPipelineServedOnDemandInTheBritishNationalGridAndItsComposite() throws {
        let (counts, caps) = try Self.check(tms: "bng.json", zooms: 1...2, box: ["-2", "53.5", "2", "50.5"], minDB: 45) { dir, map in
            dir.appendingPathComponent("out/\(map)").path
        }
        #expect(caps.components(separatedBy: "<TileMatrixSet>BNG</TileMatrixSet>").count == 4, "three layers in the set: \(caps)")
        #expect(caps.contains("<ows:SupportedCRS>urn:ogc:def:crs:EPSG::27700</ows:SupportedCRS>"), "\(caps)")
        #expect(caps.contains("<TopLeftCorner>-238375.0 1376256.0</TopLeftCorner>") && !caps.contains("WebMercatorQuad"), "\(caps)")
        print("pipeline on demand and its composite in the British National Grid: \(counts)")
    }
}
