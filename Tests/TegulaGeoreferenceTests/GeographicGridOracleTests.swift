import Foundation
import TegulaGeometry
import TegulaGeoreference
import TegulaTestSupport
import Testing

/// A tile matrix set's grid from longitude and latitude (``GeographicGrid``, PROJ through GDAL)
/// against morecantile 7.1.0 (PyPI, PROJ through pyproj) with its geographic CRS set to WGS 84, at
/// every zoom each set has: the tile of random points (`tms.tile`), the degrees of random tiles
/// (`tms.bounds`) and the tiles covering random boxes of a few tiles (`tms.tiles`), for every
/// built-in set and morecantile's custom grids for EPSG:27700 and EPSG:28992.
///
/// Tolerance: tiles and tile lists equal; degrees within 1e-9° (the two PROJs, 9.1 under GDAL and
/// pyproj's 9.5, agree to about 1e-12° here; infinite where both cannot transform).
@Suite(.timeLimit(.minutes(20)))
struct GeographicGridOracleTests {
    /// morecantile answering one query a line: `T z lon lat` (tile), `B z x y` (bounds), `C z w s e n`
    /// (covering tiles), for the set `argv[1]` makes, in WGS 84 degrees.
    static let oracle = """
        import sys, warnings, pyproj, morecantile
        from morecantile import TileMatrixSet
        assert morecantile.__version__ == "7.1.0", morecantile.__version__
        warnings.simplefilter("ignore")
        tms = eval(sys.argv[1])
        tms.set_geographic_crs(pyproj.CRS.from_epsg(4326))
        out = []
        for line in sys.stdin:
            v = line.split(); q = v[0]; z = int(v[1])
            if q == "T":
                t = tms.tile(float(v[2]), float(v[3]), z); out.append(f"{t.z} {t.x} {t.y}")
            elif q == "B":
                out.append(" ".join(repr(c) for c in tms.bounds(int(v[2]), int(v[3]), z)))
            elif q == "C":
                out.append(" ".join(f"{t.x},{t.y}" for t in tms.tiles(*[float(c) for c in v[2:6]], [z])))
        print("\\n".join(out))
        """

    /// The custom sets, as TileMatrixSetOracleTests makes them.
    static let customs = [
        "27700": "TileMatrixSet.custom([-238375.0, 0.0, 900000.0, 1376256.0], pyproj.CRS.from_epsg(27700), id='BNG')",
        "28992": "TileMatrixSet.custom([-285401.92, 22598.08, 595401.92, 903401.92], pyproj.CRS.from_epsg(28992), id='RD', maxzoom=16)",
    ]

    @Test(arguments: TileMatrixSet.builtInNames)
    func builtInSetFromDegreesAgreesWithMorecantile(name: String) throws {
        try Self.compare(try TileMatrixSet.document(named: name), setup: "morecantile.tms.get('\(name)')")
    }

    @Test(arguments: ["27700", "28992"])
    func nationalGridFromDegreesAgreesWithMorecantile(code: String) throws {
        let setup = Self.customs[code]!
        let dump = try ProgramRun.run(
            "python3", ["-c", "import pyproj\nfrom morecantile import TileMatrixSet\nprint(\(setup).model_dump_json(exclude_none=True))"])
        #expect(dump.status == 0, "morecantile failed: \(dump.stderr.suffix(600))")
        try Self.compare(try TileMatrixSet(json: Data(dump.stdout.utf8)), setup: setup)
    }

    /// Asks morecantile and Tegula the same random queries at every zoom of `tms`.
    static func compare(_ tms: TileMatrixSet, setup: String) throws {
        let grid = try GeographicGrid(tms)
        var rng = SeededRandom()
        var queries: [String] = [], ours: [String] = []
        for z in tms.zooms {
            for q in Self.queries(grid, zoom: z, rng: &rng) {
                queries.append(q.text)
                ours.append(q.answer)
            }
        }
        let r = try ProgramRun.run("python3", ["-c", oracle, setup], stdin: queries.joined(separator: "\n") + "\n")
        #expect(r.status == 0, "morecantile failed: \(r.stderr.suffix(600))")
        let theirs = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).prefix(queries.count).map(String.init)
        #expect(theirs.count == queries.count, "\(tms.id): \(theirs.count) answers to \(queries.count) queries")
        var failures = 0
        for (i, q) in queries.enumerated() where i < theirs.count && !agree(ours[i], theirs[i], degrees: q.hasPrefix("B")) {
            failures += 1
            if failures <= 5 { Issue.record("\(tms.id): \(q) → Tegula '\(ours[i])', morecantile '\(theirs[i])'; \(rng.replay)") }
        }
        #expect(failures == 0, "\(tms.id): \(failures) of \(queries.count) answers differ; \(rng.replay)")
        #expect(queries.count >= 1000, "\(tms.id): only \(queries.count) queries")
    }

    /// A query a line and Tegula's answer to it.
    typealias Query = (text: String, answer: String)

    /// At `zoom`: random points over the set's extent in degrees and a little beyond (at least
    /// 1000 over the set's zooms), 6 random tiles' degrees, 6 boxes of a few tiles.
    static func queries(_ grid: GeographicGrid, zoom z: Int, rng: inout SeededRandom) -> [Query] {
        let tms = grid.tms, limits = tms.limits(zoom: z)
        let whole = grid.extentInDegrees ?? GeoBounds(west: -180, south: -90, east: 180, north: 90)
        let width = whole.crossesAntimeridian ? whole.east + 360 - whole.west : whole.east - whole.west
        var out: [Query] = []
        for _ in 0..<max(60, 1000 / tms.zooms.count + 1) {
            let lon = whole.west + width * Double.random(in: -0.02...1.02, using: &rng)
            let c = Coordinate(
                longitude: lon > 180 ? lon - 360 : lon,
                latitude: min(90, max(-90, whole.south + (whole.north - whole.south) * Double.random(in: -0.02...1.02, using: &rng))))
            let t = grid.tile(containing: c, zoom: z)
            out.append(("T \(z) \(c.longitude) \(c.latitude)", "\(t.z) \(t.x) \(t.y)"))
        }
        func randomTile() -> Tile {
            tms.contains(Tile(x: 0, y: 0, z: z))
                ? Tile(x: Int.random(in: limits.x, using: &rng), y: Int.random(in: limits.y, using: &rng), z: z) : Tile(x: 0, y: 0, z: z)
        }
        for _ in 0..<6 {
            let t = randomTile(), b = grid.bounds(of: t)
            out.append(("B \(z) \(t.x) \(t.y)", "\(b.west) \(b.south) \(b.east) \(b.north)"))
        }
        for _ in 0..<6 {
            // A box of a few tiles around a random tile's corners in degrees.
            let b = grid.bounds(of: randomTile())
            guard [b.west, b.south, b.east, b.north].allSatisfy(\.isFinite), b.west < b.east, b.south < b.north else { continue }
            let w = (b.east - b.west) * Double.random(in: 0.1...2, using: &rng), h = (b.north - b.south) * Double.random(in: 0.1...2, using: &rng)
            let x = b.west + (b.east - b.west) * Double.random(in: 0...1, using: &rng) - w / 2
            let y = b.south + (b.north - b.south) * Double.random(in: 0...1, using: &rng) - h / 2
            let box = GeoBounds(west: x, south: y, east: x + w, north: y + h)
            // A corner PROJ cannot transform falls in the first column or row (morecantile's
            // rule): such a box can span a deep zoom's whole matrix, too many tiles to list.
            guard grid.tileRanges(covering: box, zoom: z).map({ $0.x.count * $0.y.count }).reduce(0, +) <= 400 else { continue }
            let ts = grid.tiles(covering: box, zoom: z).map { "\($0.x),\($0.y)" }
            out.append(("C \(z) \(box.west) \(box.south) \(box.east) \(box.north)", ts.joined(separator: " ")))
        }
        return out
    }

    /// Equal answers; degrees within 1e-9 (both infinite counts as equal).
    static func agree(_ a: String, _ b: String, degrees: Bool) -> Bool {
        guard degrees else { return a == b }
        let x = a.split(separator: " ").map { Double($0) },
            y = b.split(separator: " ").map { Double($0.replacingOccurrences(of: "inf", with: "infinity")) }
        guard x.count == 4, y.count == 4 else { return false }
        return zip(x, y).allSatisfy { p, q in
            guard let p, let q else { return false }
            return p == q || abs(p - q) <= 1e-9
        }
    }
}
