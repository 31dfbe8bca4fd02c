import Foundation
import TegulaGeometry
import TegulaTestSupport
import Testing

/// The grid functions of every built-in tile matrix set, and of custom ones for EPSG:27700 and
/// EPSG:28992, against morecantile 7.1.0 (PyPI, installed by scripts/setup), at every zoom each set
/// has: the tile of random points (and of points exactly on tile edges), the bounds of random
/// tiles, the tiles covering random boxes (and tiles' own bounds), parents and children.
///
/// Tolerance: tiles and tile lists must be equal. Bounds: the left and top edges (bottom for a
/// bottom-left origin) equal to the bit; the opposite edges within 4 ulp of the grid's largest
/// coordinate, since Tegula adds one span to the first edge (Web Mercator's numbers of today) where
/// morecantile counts from index + 1.
@Suite(.timeLimit(.minutes(20)))
struct TileMatrixSetOracleTests {
    /// The sets under test: each built-in document, and morecantile's own custom grids.
    static let customs = [
        "27700": "TileMatrixSet.custom([-238375.0, 0.0, 900000.0, 1376256.0], pyproj.CRS.from_epsg(27700), id='BNG')",
        "28992": "TileMatrixSet.custom([-285401.92, 22598.08, 595401.92, 903401.92], pyproj.CRS.from_epsg(28992), id='RD', maxzoom=16)",
    ]

    /// morecantile answering one query a line on stdin for the set `setup` makes: `P z x y` (tile
    /// of a point), `B z x y` (bounds), `C z left bottom right top` (covering tiles), `H z x y`
    /// (parents | children).
    static let oracle = """
        import sys, json, warnings, pyproj, morecantile
        from morecantile import TileMatrixSet
        assert morecantile.__version__ == "7.1.0", morecantile.__version__
        warnings.simplefilter("ignore")
        tms = eval(sys.argv[1])
        if sys.argv[2] == "dump":
            print(tms.model_dump_json(exclude_none=True)); sys.exit()
        crs = tms.crs._pyproj_crs
        out = []
        for line in sys.stdin:
            v = line.split(); q = v[0]; z = int(v[1])
            if q == "P":
                t = tms._tile(float(v[2]), float(v[3]), z, ignore_coalescence=False); out.append(f"{t.z} {t.x} {t.y}")
            elif q == "B":
                out.append(" ".join(repr(c) for c in tms.xy_bounds(int(v[2]), int(v[3]), z)))
            elif q == "C":
                ts = tms.tiles(*[float(c) for c in v[2:6]], [z], geographic_crs=crs)
                out.append(" ".join(f"{t.x},{t.y}" for t in ts))
            elif q == "H":
                t = morecantile.Tile(int(v[2]), int(v[3]), z)
                ps = tms.parent(t) if z > tms.minzoom else []
                cs = tms.children(t) if z < tms.maxzoom else []
                out.append(" ".join(f"{p.x},{p.y}" for p in ps) + " | " + " ".join(f"{c.x},{c.y}" for c in cs))
        print("\\n".join(out))
        """

    /// Runs the oracle for `setup` (a Python expression making the set) on `queries`.
    static func ask(_ setup: String, _ queries: [String]) throws -> [String] {
        let r = try ProgramRun.run("python3", ["-c", oracle, setup, "query"], stdin: queries.joined(separator: "\n") + "\n")
        #expect(r.status == 0, "morecantile failed: \(r.stderr.suffix(600))")
        return r.stdout.split(separator: "\n", omittingEmptySubsequences: false).prefix(queries.count).map(String.init)
    }

    /// The custom set morecantile makes, decoded from its JSON.
    static func customSet(_ setup: String) throws -> TileMatrixSet {
        let r = try ProgramRun.run("python3", ["-c", oracle, setup, "dump"])
        #expect(r.status == 0, "morecantile failed: \(r.stderr.suffix(600))")
        return try TileMatrixSet(json: Data(r.stdout.utf8))
    }

    static let builtIns = TileMatrixSet.builtInNames

    @Test(arguments: builtIns)
    func builtInSetAgreesWithMorecantile(name: String) throws {
        try Self.compare(try TileMatrixSet.document(named: name), setup: "morecantile.tms.get('\(name)')")
    }

    @Test(arguments: ["27700", "28992"])
    func customNationalGridAgreesWithMorecantile(code: String) throws {
        let setup = Self.customs[code]!
        try Self.compare(try Self.customSet(setup), setup: setup)
    }

    /// Asks morecantile and Tegula the same random queries at every zoom of `tms`.
    static func compare(_ tms: TileMatrixSet, setup: String) throws {
        var rng = SeededRandom()
        var queries: [String] = [], ours: [String] = []
        for z in tms.zooms {
            for q in Self.queries(tms, zoom: z, rng: &rng) {
                queries.append(q.text)
                ours.append(q.answer)
            }
        }
        let theirs = try ask(setup, queries)
        #expect(theirs.count == queries.count, "\(tms.id): \(theirs.count) answers to \(queries.count) queries")
        let e = tms.extent, scale = [e.left, e.bottom, e.right, e.top].map(abs).max()!
        var failures = 0
        for (i, q) in queries.enumerated() where i < theirs.count && !agree(ours[i], theirs[i], bounds: q.hasPrefix("B"), scale: scale) {
            failures += 1
            if failures <= 5 { Issue.record("\(tms.id): \(q) → Tegula '\(ours[i])', morecantile '\(theirs[i])'; \(rng.replay)") }
        }
        #expect(failures == 0, "\(tms.id): \(failures) of \(queries.count) answers differ; \(rng.replay)")
        #expect(queries.count >= 1000 || tms.zooms.count * 60 <= 1000, "\(tms.id): only \(queries.count) queries")
    }

    /// One query a line, and Tegula's answer to it.
    typealias Query = (text: String, answer: String)

    /// At `zoom`: 80 random points over the matrix and a little beyond, 8 points exactly on tile
    /// corners, 12 random tiles' bounds and parents/children, 24 random boxes, 4 tiles' own bounds.
    static func queries(_ tms: TileMatrixSet, zoom z: Int, rng: inout SeededRandom) -> [Query] {
        let whole = tms.extent, limits = tms.limits(zoom: z)
        var out: [Query] = []
        func point(_ p: GridPoint) {
            let t = tms.tile(containing: p, zoom: z)
            out.append(("P \(z) \(p.x) \(p.y)", "\(z) \(t.x) \(t.y)"))
        }
        func randomTile() -> Tile {
            Tile(x: Int.random(in: limits.x, using: &rng), y: Int.random(in: limits.y, using: &rng), z: z)
        }
        for _ in 0..<80 {
            point(
                GridPoint(
                    x: whole.left + whole.width * Double.random(in: -0.05...1.05, using: &rng),
                    y: whole.bottom + whole.height * Double.random(in: -0.05...1.05, using: &rng)))
        }
        for _ in 0..<8 {
            let b = tms.bounds(of: randomTile())
            point(GridPoint(x: b.left, y: b.top))
        }
        for _ in 0..<12 {
            let t = randomTile(), b = tms.bounds(of: t)
            out.append(("B \(z) \(t.x) \(t.y)", "\(b.left) \(b.bottom) \(b.right) \(b.top)"))
            let ps = tms.parents(of: t).map { "\($0.x),\($0.y)" }, cs = tms.children(of: t).map { "\($0.x),\($0.y)" }
            out.append(("H \(z) \(t.x) \(t.y)", ps.joined(separator: " ") + " | " + cs.joined(separator: " ")))
        }
        func cover(_ b: GridBounds) {
            let ts = tms.tiles(covering: b, zoom: z).map { "\($0.x),\($0.y)" }
            out.append(("C \(z) \(b.left) \(b.bottom) \(b.right) \(b.top)", ts.joined(separator: " ")))
        }
        for _ in 0..<24 {
            // Boxes of a few tiles around a random point: at deep zooms a box of the whole grid
            // would list billions.
            let centre = tms.bounds(of: randomTile())
            let w = centre.width * Double.random(in: 0.01...3, using: &rng), h = centre.height * Double.random(in: 0.01...3, using: &rng)
            let x = centre.left + centre.width * Double.random(in: 0...1, using: &rng) - w / 2
            let y = centre.bottom + centre.height * Double.random(in: 0...1, using: &rng) - h / 2
            cover(GridBounds(left: x, bottom: y, right: x + w, top: y + h))
        }
        for _ in 0..<4 { cover(tms.bounds(of: randomTile())) }
        return out
    }

    /// Equal answers; for bounds, left and top to the bit and right and bottom within 4 ulp of
    /// `scale`, the largest coordinate of the grid (the sums start from the origin, so their
    /// rounding is that of the grid's largest numbers, not of a result near 0).
    static func agree(_ a: String, _ b: String, bounds: Bool, scale: Double) -> Bool {
        guard bounds else { return a == b }
        let x = a.split(separator: " ").compactMap { Double($0) }, y = b.split(separator: " ").compactMap { Double($0) }
        guard x.count == 4, y.count == 4 else { return false }
        return zip(x, y).allSatisfy { abs($0 - $1) <= 4 * max(abs($0), abs($1), scale).ulp }
            && x[0] == y[0] && (x[3] == y[3] || x[1] == y[1])
    }
}
