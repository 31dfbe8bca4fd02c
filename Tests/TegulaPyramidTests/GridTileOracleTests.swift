import Foundation
import TegulaGDAL
import TegulaGeometry
import TegulaGeoreference
import TegulaTestSupport
import TegulaWarp
import Testing

@testable import TegulaPyramid

/// Scans cut in tile matrix sets other than WebMercatorQuad (`tegula tile --tms`), against
/// `gdalwarp -r bilinear -et 0` of the same scan into each tile's bounds in the set's CRS, the
/// bounds from morecantile (PyPI), not from Tegula's grid functions: British National Grid and
/// the Dutch RD grid as morecantile's `TileMatrixSet.custom` makes them (read from the JSON file
/// it writes), the built-in UTM31WGS84Quad and WorldCRS84Quad. Each input reaches the set's CRS
/// another way: a GCP fit in the set's own CRS (no PROJ step), a UTM geotransform reprojected to
/// RD, a GCP fit in EPSG:3857 reprojected to UTM 31N, a UTM 32N geotransform to CRS84.
@Suite(.timeLimit(.minutes(20)))
struct GridTileOracleTests {
    /// One cut: the set (a morecantile expression), the CRS gdalwarp is given, the input and the
    /// max zoom (its cells smaller than the scan's 100 m pixels, as a max zoom chosen at or above
    /// the scan's resolution is).
    struct Case: CustomStringConvertible, Sendable {
        var name: String
        var setup: String
        var crs: String
        var input: Input
        var zoom: Int
        var description: String { name }
    }

    /// How the synthetic scan is georeferenced.
    enum Input: Sendable {
        /// A geotransform in `crs`, upper-left and lower-right corners.
        case geotransform(crs: String, ullr: [Double])
        /// Five GCPs of an affine map in `crs`: `origin`, `pixel` metres a pixel, turned by `degrees`.
        case gcps(crs: String, origin: (Double, Double), pixel: Double, degrees: Double)
    }

    /// morecantile's custom national grids, as TileMatrixSetOracleTests (TegulaGeometryTests) holds
    /// them to morecantile.
    static let customs = [
        "27700": "TileMatrixSet.custom([-238375.0, 0.0, 900000.0, 1376256.0], pyproj.CRS.from_epsg(27700), id='BNG')",
        "28992": "TileMatrixSet.custom([-285401.92, 22598.08, 595401.92, 903401.92], pyproj.CRS.from_epsg(28992), id='RD', maxzoom=16)",
    ]

    static let cases = [
        Case(
            name: "EPSG:27700 (BNG custom)", setup: customs["27700"]!, crs: "EPSG:27700",
            input: .gcps(crs: "EPSG:27700", origin: (490_000, 220_000), pixel: 100, degrees: 15), zoom: 7),
        Case(
            name: "EPSG:28992 (RD custom)", setup: customs["28992"]!, crs: "EPSG:28992",
            input: .geotransform(crs: "EPSG:32631", ullr: [620_000, 5_850_000, 710_000, 5_790_000]), zoom: 6),
        Case(
            name: "UTM31WGS84Quad", setup: "morecantile.tms.get('UTM31WGS84Quad')", crs: "EPSG:32631",
            input: .gcps(crs: "EPSG:3857", origin: (556_597, 6_800_125), pixel: 100, degrees: -12), zoom: 12),
        Case(
            name: "WorldCRS84Quad", setup: "morecantile.tms.get('WorldCRS84Quad')", crs: "OGC:CRS84",
            input: .geotransform(crs: "EPSG:32632", ullr: [470_000, 5_030_000, 560_000, 4_970_000]), zoom: 10),
    ]

    /// morecantile: `dump` writes the set's JSON; `bounds` answers `z x y` lines with xy_bounds.
    static let oracle = """
        import sys, warnings, pyproj, morecantile
        from morecantile import TileMatrixSet
        warnings.simplefilter("ignore")
        tms = eval(sys.argv[1])
        if sys.argv[2] == "dump":
            print(tms.model_dump_json(exclude_none=True)); sys.exit()
        for line in sys.stdin:
            z, x, y = (int(v) for v in line.split())
            print(" ".join(repr(c) for c in tms.xy_bounds(x, y, z)))
        """

    /// The set morecantile makes, through the JSON file it writes, as `--tms FILE.json` reads it.
    static func tileMatrixSet(_ c: Case, in dir: URL) throws -> TileMatrixSet {
        let r = try ProgramRun.run("python3", ["-c", oracle, c.setup, "dump"])
        try #require(r.status == 0, "morecantile: \(r.stderr.suffix(600))")
        let file = dir.appendingPathComponent("tms.json").path
        try Data(r.stdout.utf8).write(to: URL(fileURLWithPath: file))
        return try TileMatrixSet(argument: file)
    }

    /// morecantile's bounds of each tile `z/x/y`, in the set's CRS.
    static func bounds(_ c: Case, tiles: [String]) throws -> [String: [String]] {
        let lines = tiles.map { $0.replacingOccurrences(of: "/", with: " ") }
        let r = try ProgramRun.run("python3", ["-c", oracle, c.setup, "bounds"], stdin: lines.joined(separator: "\n") + "\n")
        try #require(r.status == 0, "morecantile: \(r.stderr.suffix(600))")
        let answers = r.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        try #require(answers.count == tiles.count)
        return Dictionary(uniqueKeysWithValues: zip(tiles, answers))
    }

    /// The scan for gdalwarp (a GeoTIFF, or a VRT carrying the GCPs) and its options; the warp
    /// source Tegula resolves for it, as `tegula tile` would.
    static func input(_ input: Input, in dir: URL) throws -> (gdal: String, source: WarpSource, options: [String]) {
        let synthetic = try PyramidFixtures.geotiff(in: dir)
        switch input {
        case .geotransform(let crs, let ullr):
            let path = dir.appendingPathComponent("placed.tif").path
            let r = try ProgramRun.run("gdal_translate", ["-q", "-a_srs", crs, "-a_ullr"] + ullr.map { "\($0)" } + [synthetic, path])
            try #require(r.status == 0, "\(r.stderr)")
            return (path, try WarpInput(path: path).resolve(), [])
        case .gcps(let crs, let origin, let pixel, let degrees):
            let t = degrees * Double.pi / 180
            let gcps = [(0.0, 0.0), (900, 0), (900, 600), (0, 600), (450, 300)].enumerated().map { i, p in
                let g = GroundPoint(
                    x: origin.0 + pixel * (cos(t) * p.0 + sin(t) * p.1), y: origin.1 + pixel * (sin(t) * p.0 - cos(t) * p.1))
                return GCP(id: "P\(i + 1)", pixel: PixelPoint(x: p.0, y: p.1), ground: g)
            }
            let vrt = dir.appendingPathComponent("gcps.vrt").path
            let args = gcps.flatMap { ["-gcp", "\($0.pixel.x)", "\($0.pixel.y)", "\($0.ground.x)", "\($0.ground.y)"] }
            let r = try ProgramRun.run("gdal_translate", ["-q", "-of", "VRT", "-a_srs", crs] + args + [synthetic, vrt])
            try #require(r.status == 0, "\(r.stderr)")
            let source = try WarpInput(
                path: synthetic, gcpSet: GCPSet(gcps: gcps, crs: CRS(crs)), fit: FitOptions(transform: .polynomial1)
            ).resolve()
            return (vrt, source, ["-order", "1"])
        }
    }

    /// gdalwarp of `source` into the rectangle of zoom `z`'s tiles `columns` × `rows` in the
    /// case's CRS (its corners from morecantile's bounds of the corner tiles), 256 px a tile,
    /// exact transforms: each tile's 256 × 256 px of it are a warp into that tile's bounds (the
    /// same pixel centres), all tiles in one gdalwarp run.
    static func gdalwarp(
        _ source: String, z: Int, columns: ClosedRange<Int>, rows: ClosedRange<Int>, _ c: Case, options: [String], in dir: URL
    ) throws -> Mosaic {
        let corners = try bounds(c, tiles: ["\(z)/\(columns.lowerBound)/\(rows.lowerBound)", "\(z)/\(columns.upperBound)/\(rows.upperBound)"])
        let (topLeft, bottomRight) = (
            corners["\(z)/\(columns.lowerBound)/\(rows.lowerBound)"]!, corners["\(z)/\(columns.upperBound)/\(rows.upperBound)"]!
        )
        let out = dir.appendingPathComponent("oracle.tif")
        defer { try? FileManager.default.removeItem(at: out) }
        let r = try ProgramRun.run(
            "gdalwarp",
            ["-q", "-t_srs", c.crs, "-te", topLeft[0], bottomRight[1], bottomRight[2], topLeft[3]]
                + ["-ts", "\(256 * columns.count)", "\(256 * rows.count)", "-r", "bilinear", "-et", "0", "-dstalpha"]
                + options + [source, out.path])
        try #require(r.status == 0, "gdalwarp: \(r.stderr)")
        let image = try TileOracleTests.decode(try Data(contentsOf: out), name: "copy.tif", in: dir)
        return Mosaic(columns: columns, rows: rows, width: image.side, px: image.px)
    }

    /// One gdalwarp of a rectangle of tiles, and a tile's part of it.
    struct Mosaic {
        let columns: ClosedRange<Int>, rows: ClosedRange<Int>, width: Int, px: [UInt8]

        /// Tile (x, y)'s 256 × 256 RGBA pixels.
        func tile(x: Int, y: Int) -> [UInt8] {
            let (left, top) = ((x - columns.lowerBound) * 256, (y - rows.lowerBound) * 256)
            var out: [UInt8] = []
            out.reserveCapacity(256 * 256 * 4)
            for row in 0..<256 {
                let start: Int = ((top + row) * width + left) * 4
                out += px[start..<(start + 256 * 4)]
            }
            return out
        }
    }

    @Test(arguments: cases)
    func aScanCutInTheSetMatchesGdalwarpIntoEachTilesBounds(_ c: Case) throws {
        let dir = try TemporaryFolder.make("grid-oracle")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (gdal, source, options) = try Self.input(c.input, in: dir)
        var job = TileJob(source: source, output: dir.appendingPathComponent("tiles").path, name: "t")
        job.tms = try Self.tileMatrixSet(c, in: dir)
        job.settings = try TileSettings(zooms: ZoomRequest(min: c.zoom, max: c.zoom)!)
        job.jobs = 2
        _ = try job.run()
        let tiles = try PyramidFixtures.tiles(in: job.output)
        #expect(tiles.count >= 12, "\(tiles.keys.sorted())")
        let keys = tiles.keys.map { $0.split(separator: "/").map { Int($0)! } }
        let mosaic = try Self.gdalwarp(
            gdal, z: c.zoom, columns: keys.map { $0[1] }.min()!...keys.map { $0[1] }.max()!,
            rows: keys.map { $0[2] }.min()!...keys.map { $0[2] }.max()!, c, options: options, in: dir)
        var interior = TileOracleTests.Agreement(), whole = TileOracleTests.Agreement()
        for (key, data) in tiles {
            let ours = try PyramidFixtures.rgba(data)
            let xyz = key.split(separator: "/").map { Int($0)! }
            let theirs = mosaic.tile(x: xyz[1], y: xyz[2])
            whole.add(ours, theirs)
            let (a, b, _) = MaxZoomWarpOracleTests.interiors(ours, theirs)
            interior.add(a, b)
        }
        print("\(c.name) zoom \(c.zoom) (\(tiles.count) tiles) vs gdalwarp -r bilinear -et 0: interiors \(interior); whole tiles \(whole)")
        #expect(interior.n > 200_000, "\(interior)")
        #expect(interior.psnr >= 45, "\(interior)")
        #expect(whole.mismatchShare < 1e-3, "\(whole)")
        let written = try TileMatrixSet(argument: job.output + "/" + TileJob.tileMatrixSetFileName)
        #expect(written == job.tms, "the folder's tms.json is not the set it was cut in")
    }
}
