import Foundation
import TegulaTestSupport
import Testing

/// `tegula grid --tms-from EPSG:N --extent …` against morecantile 7.1.0's `TileMatrixSet.custom`
/// (PyPI, installed by scripts/setup) on the same CRS and extent: the same matrices, number for
/// number, the same CRS URI, and the axis order morecantile reads from PROJ.
@Suite(.timeLimit(.minutes(20)))
struct GridCustomCLITests {
    /// morecantile's custom set as JSON, its axes inverted or not, for `arguments`: CODE, the
    /// extent's four numbers, MINZOOM, MAXZOOM, then `topLeft` or `bottomLeft`.
    static let oracle = """
        import sys, json, pyproj, morecantile
        assert morecantile.__version__ == "7.1.0", morecantile.__version__
        code, l, b, r, t, lo, hi, corner = sys.argv[1:9]
        crs = pyproj.CRS.from_epsg(int(code))
        tms = morecantile.TileMatrixSet.custom([float(l), float(b), float(r), float(t)], crs, minzoom=int(lo), maxzoom=int(hi),
                                                corner_of_origin=corner, id="Custom")
        d = json.loads(tms.model_dump_json(exclude_none=True))
        d["inverted"] = tms._invert_axis
        print(json.dumps(d))
        """

    /// (EPSG code, extent, zooms, corner): the British and Dutch national grids' published extents,
    /// a UTM zone, LV95, and WGS 84 (latitude first, degrees).
    static let cases: [(String, [Double], ClosedRange<Int>, String)] = [
        ("27700", [-238375.0, 0.0, 900000.0, 1376256.0], 0...24, "topLeft"),
        ("28992", [-285401.92, 22598.08, 595401.92, 903401.92], 0...16, "topLeft"),
        ("32631", [166021.44, 0.0, 833978.56, 9329005.18], 2...20, "bottomLeft"),
        ("2056", [2420000.0, 1030000.0, 2900000.0, 1350000.0], 0...18, "topLeft"),
        ("4326", [-180.0, -90.0, 180.0, 90.0], 0...12, "topLeft"),
    ]

    @Test(arguments: 0..<5)
    func customGridIsMorecantiles(index: Int) throws {
        let (code, box, zooms, corner) = Self.cases[index]
        let extent = box.map { "\($0)" }.joined(separator: ",")
        let ours = try TegulaBinary.run([
            "grid", "--tms-from", "EPSG:\(code)", "--extent", extent,
            "--zoom", "\(zooms.lowerBound)-\(zooms.upperBound)", "--corner", corner,
        ])
        #expect(ours.status == 0, "\(ours.stderr)")
        let theirs = try ProgramRun.run(
            "python3",
            ["-c", Self.oracle, code] + box.map { "\($0)" }
                + ["\(zooms.lowerBound)", "\(zooms.upperBound)", corner])
        #expect(theirs.status == 0, "morecantile failed: \(theirs.stderr.suffix(600))")
        let a = try JSONSerialization.jsonObject(with: Data(ours.stdout.utf8)) as! [String: Any]
        let b = try JSONSerialization.jsonObject(with: Data(theirs.stdout.utf8)) as! [String: Any]
        #expect(a["crs"] as? String == b["crs"] as? String)
        #expect(a["id"] as? String == "Custom")
        let axes = a["orderedAxes"] as? [String] ?? []
        #expect(["Y", "LAT", "N"].contains(axes.first?.uppercased() ?? "") == (b["inverted"] as? Bool), "EPSG:\(code) axes \(axes)")
        let ms = a["tileMatrices"] as? [[String: Any]] ?? [], ns = b["tileMatrices"] as? [[String: Any]] ?? []
        #expect(ms.count == zooms.count && ns.count == zooms.count)
        for (m, n) in zip(ms, ns) {
            for key in ["id", "cornerOfOrigin"] { #expect(m[key] as? String == n[key] as? String, "EPSG:\(code) \(key)") }
            for key in ["tileWidth", "tileHeight", "matrixWidth", "matrixHeight"] {
                #expect(m[key] as? Int == n[key] as? Int, "EPSG:\(code) zoom \(m["id"] ?? "") \(key)")
            }
            for key in ["scaleDenominator", "cellSize"] {
                #expect(m[key] as? Double == n[key] as? Double, "EPSG:\(code) zoom \(m["id"] ?? "") \(key): \(m[key] ?? "") vs \(n[key] ?? "")")
            }
            #expect(m["pointOfOrigin"] as? [Double] == n["pointOfOrigin"] as? [Double], "EPSG:\(code) pointOfOrigin")
        }
    }

    @Test func badExtentOrCRSIsOneLineAndNoFile() throws {
        let out = try TemporaryFolder.make("grid-custom").appendingPathComponent("tms.json").path
        for args in [
            ["--tms-from", "EPSG:27700", "--extent", "0,0,700000"], ["--tms-from", "EPSG:27700", "--extent", "9,0,1,5"],
            ["--tms-from", "EPSG:999999", "--extent", "0,0,1,1"], ["--tms-from", "EPSG:27700", "--extent", "0,0,1,1", "--zoom", "5-2"],
            ["--tms-from", "EPSG:27700", "--extent", "0,0,1,1", "--corner", "middle"],
        ] {
            let r = try TegulaBinary.run(["grid"] + args + ["-o", out])
            #expect(r.status != 0, "\(args)")
            #expect(r.stderr.split(separator: "\n").count == 1, "\(args): \(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
    }
}
