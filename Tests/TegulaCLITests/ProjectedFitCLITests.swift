import Foundation
import TegulaTestSupport
import Testing

/// GCPs whose ground coordinates are in a projected CRS are fitted in that CRS by default, as
/// QGIS, GDAL and Allmaps fit them (issue 45 item 2): `tegula transform` of a QGIS `.points` in
/// EPSG:27700 and of a VRT in EPSG:28992 equals `gdaltransform` on the same GCPs at points far
/// from them; `--fit-srs EPSG:3857` still overrides, and the report says which CRS and why.
@Suite(.timeLimit(.minutes(20)))
struct ProjectedFitCLITests {
    /// 12 GCPs over a 2000 × 1500 scan, in metres of a national grid near (`e0`, `n0`), bent
    /// by a quadratic term so that polynomials and TPS differ from an affine map.
    static func gcps(e0: Double, n0: Double) -> [(px: Double, py: Double, x: Double, y: Double)] {
        var out: [(Double, Double, Double, Double)] = []
        for (i, (u, v)) in [
            (0.05, 0.08), (0.5, 0.03), (0.95, 0.1), (0.1, 0.5), (0.55, 0.45), (0.9, 0.55),
            (0.04, 0.93), (0.45, 0.97), (0.97, 0.9), (0.3, 0.25), (0.7, 0.75), (0.25, 0.7),
        ].enumerated() {
            let px = 2000 * u, py = 1500 * v
            let x = e0 + 40 * px + 3 * py + 0.004 * px * py + Double(i % 3) * 7
            let y = n0 - 38 * py + 2 * px - 0.003 * px * px + Double(i % 2) * 5
            out.append((px, py, x, y))
        }
        return out
    }

    /// Pixels far from the GCPs: the corners beyond the scan and the middle of each edge.
    static let probes: [(Double, Double)] = [(-1500, -1000), (3500, -1000), (3500, 2500), (-1500, 2500), (1000, -800), (1000, 2300)]

    /// `gdaltransform -gcp … METHOD` over the probes: X Y in the GCPs' CRS.
    static func gdaltransform(_ g: [(px: Double, py: Double, x: Double, y: Double)], method: [String]) throws -> [[Double]] {
        let args = g.flatMap { ["-gcp", "\($0.px)", "\($0.py)", "\($0.x)", "\($0.y)"] } + method + ["-output_xy"]
        return try numbers(ProgramRun.output("gdaltransform", args, stdin: probeLines))
    }

    static var probeLines: String { probes.map { "\($0.0) \($0.1)" }.joined(separator: "\n") + "\n" }

    static func numbers(_ text: String) -> [[Double]] {
        text.split(separator: "\n").map { $0.split(separator: " ").compactMap { Double($0) } }
    }

    /// The largest distance in metres between two lists of X Y.
    static func worst(_ a: [[Double]], _ b: [[Double]]) -> Double {
        guard a.count == b.count else { return .infinity }
        return zip(a, b).map { hypot($0[0] - $1[0], $0[1] - $1[1]) }.max() ?? .infinity
    }

    @Test func aQGISPointsFileInABritishNationalGridIsFittedThereAsGdaltransformFitsIt() throws {
        let dir = try TemporaryFolder.make("cli-projected-fit")
        defer { try? FileManager.default.removeItem(at: dir) }
        let g = Self.gcps(e0: 530_000, n0: 180_000)
        let wkt = try ProgramRun.output("gdalsrsinfo", ["-o", "wkt2", "--single-line", "EPSG:27700"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let rows = g.map { "\($0.x),\($0.y),\($0.px),\(-$0.py),1" }
        let points = dir.appendingPathComponent("bng.points").path
        try Data((["#CRS: \(wkt)", "mapX,mapY,sourceX,sourceY,enable"] + rows).joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: points))

        for (kind, method) in [("polynomial2", ["-order", "2"]), ("tps", ["-tps"])] {
            let ours = try TegulaBinary.run(["transform", "--gcps", points, "--transform", kind], stdin: Self.probeLines)
            #expect(ours.status == 0, "\(ours.stderr)")
            let gdal = try Self.gdaltransform(g, method: method)
            let d = Self.worst(Self.numbers(ours.stdout), gdal)
            print("\(kind), .points in EPSG:27700, default fitting CRS vs gdaltransform \(method.joined(separator: " ")): \(d) m")
            #expect(d < 1e-4, "\(kind): \(ours.stdout) vs \(gdal)")
            // --fit-srs still overrides: in EPSG:3857 the answers away from the GCPs move.
            let mercator = try TegulaBinary.run(
                ["transform", "--gcps", points, "--transform", kind, "--fit-srs", "EPSG:3857"], stdin: Self.probeLines)
            #expect(mercator.status == 0 && Self.worst(Self.numbers(mercator.stdout), gdal) > 1, "\(mercator.stdout)")
        }

        // georef's report and summary say which CRS and why.
        let scan = dir.appendingPathComponent("scan.tif").path
        _ = try ProgramRun.output("gdal_create", ["-of", "GTiff", "-outsize", "2000", "1500", "-bands", "1", "-ot", "Byte", scan])
        let report = dir.appendingPathComponent("fit.json").path
        let r = try TegulaBinary.run([
            "georef", scan, "--gcps", points, "--transform", "polynomial2", "-o", dir.appendingPathComponent("o.vrt").path,
            "--report", report,
        ])
        #expect(r.status == 0 && r.stderr.contains("fitted in EPSG:27700 (the GCPs' own CRS, which is projected"), "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
        let fitSRS = json["fit_srs"] as? String, why = json["fit_srs_chosen_by"] as? String
        #expect(
            fitSRS?.hasSuffix("ID[\"EPSG\",27700]]") == true && why?.contains("projected") == true,
            "\(String(describing: fitSRS)): \(String(describing: why))")
    }

    @Test func aVRTInTheDutchNationalGridIsFittedThereAsGdaltransformFitsIt() throws {
        let dir = try TemporaryFolder.make("cli-projected-fit")
        defer { try? FileManager.default.removeItem(at: dir) }
        let g = Self.gcps(e0: 121_000, n0: 487_000)
        let scan = dir.appendingPathComponent("scan.tif").path
        _ = try ProgramRun.output("gdal_create", ["-of", "GTiff", "-outsize", "2000", "1500", "-bands", "1", "-ot", "Byte", scan])
        let vrt = dir.appendingPathComponent("rd.vrt").path
        _ = try ProgramRun.output(
            "gdal_translate",
            ["-q", "-of", "VRT", "-a_srs", "EPSG:28992"]
                + g.flatMap { ["-gcp", "\($0.px)", "\($0.py)", "\($0.x)", "\($0.y)"] } + [scan, vrt])
        for (kind, method) in [("polynomial1", ["-order", "1"]), ("polynomial3", ["-order", "3"]), ("tps", ["-tps"])] {
            let ours = try TegulaBinary.run(["transform", "--gcps", vrt, "--transform", kind], stdin: Self.probeLines)
            #expect(ours.status == 0, "\(ours.stderr)")
            // GDAL reads the GCPs from the VRT itself here, not from our copy of them.
            let gdal = Self.numbers(try ProgramRun.output("gdaltransform", method + ["-output_xy", vrt], stdin: Self.probeLines))
            let d = Self.worst(Self.numbers(ours.stdout), gdal)
            print("\(kind), VRT in EPSG:28992, default fitting CRS vs gdaltransform \(method.joined(separator: " ")) VRT: \(d) m")
            #expect(d < 1e-4, "\(kind): \(ours.stdout) vs \(gdal)")
        }
    }
}
