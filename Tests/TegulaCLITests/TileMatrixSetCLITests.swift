import Foundation
import TegulaTestSupport
import Testing

/// `tegula tile --tms`: a folder cut in WorldCRS84Quad holds the tiles morecantile (PyPI) says
/// cover the scan and carries the set as `tms.json`; MBTiles and PMTiles refuse any set but
/// WebMercatorQuad in one line naming a GeoPackage or a folder, and write nothing; an unknown
/// set is one line.
@Suite(.timeLimit(.minutes(20)))
struct TileMatrixSetCLITests {
    /// The synthetic scan (EPSG:4326, lon 5…23, lat 41…53) in a fresh folder.
    static func scan() throws -> (dir: URL, path: String) {
        let dir = try TemporaryFolder.make("tms-cli")
        let path = dir.appendingPathComponent("scan.tif").path
        try SyntheticGeoTIFF.write(to: path)
        return (dir, path)
    }

    /// morecantile's tiles of WorldCRS84Quad at `zooms` overlapping the box, as `z/x/y`, and
    /// those wholly inside it.
    static func covering(west: Double, south: Double, east: Double, north: Double, zooms: ClosedRange<Int>) throws
        -> (overlapping: Set<String>, inside: Set<String>)
    {
        let script = """
            import morecantile
            tms = morecantile.tms.get("WorldCRS84Quad")
            w, s, e, n = \(west), \(south), \(east), \(north)
            for t in tms.tiles(w, s, e, n, list(range(\(zooms.lowerBound), \(zooms.upperBound + 1)))):
                b = tms.bounds(t)
                inside = b.left >= w and b.right <= e and b.bottom >= s and b.top <= n
                print(f"{t.z}/{t.x}/{t.y} {int(inside)}")
            """
        let r = try ProgramRun.run("python3", ["-c", script])
        try #require(r.status == 0, "morecantile: \(r.stderr.suffix(600))")
        var overlapping = Set<String>(), inside = Set<String>()
        for line in r.stdout.split(separator: "\n") {
            let parts = line.split(separator: " ")
            overlapping.insert(String(parts[0]))
            if parts[1] == "1" { inside.insert(String(parts[0])) }
        }
        return (overlapping, inside)
    }

    @Test func aFolderCutInWorldCRS84QuadHoldsMorecantilesCoveringTilesAndItsTMS() throws {
        let (dir, scan) = try Self.scan()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("crs84").path
        let r = try TegulaBinary.run(["tile", scan, "-o", out, "--tms", "WorldCRS84Quad", "--zoom", "4-6", "--quiet"])
        try #require(r.status == 0, "\(r.stderr)")
        let written = Set(
            try InteropTests.files(under: out, skip: ["tiles.json", ".tegula-tileset", "tms.json"]).keys.map {
                String($0.dropLast(".png".count))
            })
        let (overlapping, inside) = try Self.covering(west: 5, south: 41, east: 23, north: 53, zooms: 4...6)
        #expect(!written.isEmpty && written.isSubset(of: overlapping), "outside morecantile's cover: \(written.subtracting(overlapping).sorted())")
        #expect(inside.isSubset(of: written), "missing: \(inside.subtracting(written).sorted())")
        let tms = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/tms.json"))) as? [String: Any])
        #expect(tms["id"] as? String == "WorldCRS84Quad")
        #expect((tms["tileMatrices"] as? [Any])?.count == 24)
    }

    @Test(arguments: ["mbtiles", "pmtiles"])
    func mbtilesAndPMTilesRefuseAnotherSetInOneLineNamingGeoPackageOrAFolder(form: String) throws {
        let (dir, scan) = try Self.scan()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("crs84.\(form)").path
        let r = try TegulaBinary.run(["tile", scan, "-o", out, "--tms", "WorldCRS84Quad", "--zoom", "4", "--quiet"])
        #expect(r.status != 0)
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("GeoPackage") && lines[0].contains("folder"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out), "\(out) was written")
    }

    @Test func anUnknownSetIsOneLineListingTheBuiltInOnes() throws {
        let (dir, scan) = try Self.scan()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try TegulaBinary.run(["tile", scan, "-o", dir.appendingPathComponent("t").path, "--tms", "worldcrs84quad"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("WorldCRS84Quad?") && r.stderr.contains("UTM31WGS84Quad"), "\(r.stderr)")
    }
}
