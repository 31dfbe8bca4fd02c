import Foundation
import TegulaGDAL
import TegulaGeometry
import TegulaSupport
import TegulaTestSupport
import Testing

@testable import TegulaGeoreference

/// The joint fit of tied sheets (``SeriesFit``) against an independent oracle: the same problem
/// written the other way round (the tie ground points as unknowns, every row in one dense matrix)
/// and solved by numpy (`numpy.linalg.lstsq`, the project's .venv Python).
@Suite(.timeLimit(.minutes(20)))
struct SeriesFitTests {
    /// Three 300 × 200 sheets in a row, overlapping by 60 px, scan pixels of 100 m in EPSG:3857.
    static let width = 300, height = 200, res = 100.0
    static func origin(_ s: Int) -> (Double, Double) { (-500_000 + Double(s) * 240 * res, 6_800_000) }

    /// 8 GCPs per sheet, each moved by up to 3 px; ties: 3 per neighbour pair in the overlap.
    static func sheets(kinds: [TransformKind], random r: inout SeededRandom) -> ([SeriesSheet], [Tie]) {
        let crs = try! CRS("EPSG:3857")
        var sheets: [SeriesSheet] = []
        for (s, kind) in kinds.enumerated() {
            let (x0, y0) = origin(s)
            let gcps = (0..<8).map { i -> GCP in
                let x = Double.random(in: 10...290, using: &r), y = Double.random(in: 10...190, using: &r)
                let dx = Double.random(in: -3...3, using: &r) * res, dy = Double.random(in: -3...3, using: &r) * res
                return GCP(id: "\(i + 1)", pixel: PixelPoint(x: x, y: y), ground: GroundPoint(x: x0 + x * res + dx, y: y0 - y * res + dy))
            }
            sheets.append(
                SeriesSheet(
                    name: "s\(s)", gcps: GCPSet(gcps: gcps, crs: crs), width: width, height: height,
                    options: FitOptions(transform: kind)))
        }
        var ties: [Tie] = []
        for s in 0..<(kinds.count - 1) {
            for y in [20.0, 100.5, 180.0] {
                let x = 270.0  // on sheet s; the same place is x − 240 on sheet s + 1
                ties.append(Tie(sheetA: s, pixelA: PixelPoint(x: x, y: y), sheetB: s + 1, pixelB: PixelPoint(x: x - 240, y: y)))
            }
        }
        return (sheets, ties)
    }

    /// The oracle's parameters of a sheet: ground = rows(p) · θ, in raw pixels scaled by 1/300.
    static func rows(_ kind: TransformKind, _ p: PixelPoint) -> ([Double], [Double]) {
        let u = p.x / 300, v = p.y / 300
        switch kind {
        case .helmert: return ([u, v, 1, 0], [-v, u, 0, 1])
        case .polynomial1: return ([1, u, v, 0, 0, 0], [0, 0, 0, 1, u, v])
        default:
            let t = [1, u, v, u * u, u * v, v * v]
            return (t + [0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0] + t)
        }
    }

    /// Dense least squares: θ of every sheet, then G of every tie; √w on the tie rows; solved by
    /// numpy, the numbers passed in Swift's shortest round-trip form.
    static func oracle(_ sheets: [SeriesSheet], _ kinds: [TransformKind], _ ties: [Tie], weight: Double) throws -> [[Double]] {
        var offsets = [0]
        for k in kinds { offsets.append(offsets.last! + rows(k, PixelPoint(x: 0, y: 0)).0.count) }
        let n = offsets.last! + 2 * ties.count
        var a: [Double] = [], b: [Double] = []
        func row(_ s: Int, _ coefficients: [Double], tieColumn: Int? = nil, scale: Double = 1) -> [Double] {
            var r = [Double](repeating: 0, count: n)
            for (i, c) in coefficients.enumerated() { r[offsets[s] + i] = scale * c }
            if let tieColumn { r[tieColumn] = -scale }
            return r
        }
        for (s, sheet) in sheets.enumerated() {
            for g in sheet.gcps.gcps {
                let (rx, ry) = rows(kinds[s], g.pixel)
                a += row(s, rx); b.append(g.ground.x)
                a += row(s, ry); b.append(g.ground.y)
            }
        }
        let w = weight.squareRoot()
        for (t, tie) in ties.enumerated() {
            for (s, p) in [(tie.sheetA, tie.pixelA), (tie.sheetB, tie.pixelB)] {
                let (rx, ry) = rows(kinds[s], p)
                a += row(s, rx, tieColumn: offsets.last! + 2 * t, scale: w); b.append(0)
                a += row(s, ry, tieColumn: offsets.last! + 2 * t + 1, scale: w); b.append(0)
            }
        }
        func list(_ v: [Double]) -> String { "[" + v.map { "\($0)" }.joined(separator: ",") + "]" }
        let out = try ProgramRun.output(
            PackageRoot.path(".venv/bin/python3"),
            [
                "-c",
                """
                import json, sys
                import numpy as np
                d = json.load(sys.stdin)
                a = np.array(d["a"]).reshape(len(d["b"]), -1)
                print(json.dumps(np.linalg.lstsq(a, np.array(d["b"]), rcond=None)[0].tolist()))
                """,
            ], stdin: "{\"a\": \(list(a)), \"b\": \(list(b))}")
        let x = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [Double], "\(out)")
        try #require(x.count == n)
        return kinds.indices.map { Array(x[offsets[$0]..<offsets[$0 + 1]]) }
    }

    @Test(arguments: [[TransformKind.polynomial1, .polynomial1, .polynomial1], [.helmert, .polynomial2, .polynomial1]])
    func theJointFitEqualsTheDenseLeastSquaresSolutionWithTheTiePointsAsUnknowns(kinds: [TransformKind]) throws {
        var r = SeededRandom()
        let (sheets, ties) = Self.sheets(kinds: kinds, random: &r)
        for weight in [1.0, 25.0] {
            let fit = try SeriesFit.fit(sheets: sheets, ties: ties, tieWeight: weight)
            #expect(fit.groups == [[0, 1, 2]])
            let theta = try Self.oracle(sheets, kinds, ties, weight: weight)
            var worst = WorstError()
            for s in 0..<3 {
                let after = try #require(fit.sheets[s]).after
                #expect(after.kind == kinds[s])
                for p in [PixelPoint(x: 0, y: 0), PixelPoint(x: 300, y: 200), PixelPoint(x: 150, y: 7.5), PixelPoint(x: 270, y: 100.5)] {
                    let (rx, ry) = Self.rows(kinds[s], p)
                    let x = zip(rx, theta[s]).reduce(0) { $0 + $1.0 * $1.1 }, y = zip(ry, theta[s]).reduce(0) { $0 + $1.0 * $1.1 }
                    let g = after.transform.forward(p)
                    worst.add(hypot(g.x - x, g.y - y))
                }
            }
            // Grounds are ~7e6 m: 1 mm is a relative 1.4e-10.
            #expect(worst.value < 1e-3, "weight \(weight): the joint fit is \(worst.value) m from the oracle; \(r.replay)")
            // Every tie's seam after the fit: the oracle's two positions (EPSG:3857 to degrees by
            // the spherical Mercator formulas), great-circle metres on the mean sphere.
            var seams = WorstError()
            for (t, tie) in ties.enumerated() {
                func degrees(_ s: Int, _ p: PixelPoint) -> (Double, Double) {
                    let (rx, ry) = Self.rows(kinds[s], p)
                    let x = zip(rx, theta[s]).reduce(0) { $0 + $1.0 * $1.1 }, y = zip(ry, theta[s]).reduce(0) { $0 + $1.0 * $1.1 }
                    return (x / 6378137 * 180 / .pi, (2 * atan(exp(y / 6378137)) - .pi / 2) * 180 / .pi)
                }
                let a = degrees(tie.sheetA, tie.pixelA), b = degrees(tie.sheetB, tie.pixelB), k = Double.pi / 180
                let h = pow(sin((b.1 - a.1) * k / 2), 2) + cos(a.1 * k) * cos(b.1 * k) * pow(sin((b.0 - a.0) * k / 2), 2)
                let seam = 2 * 6371008.8 * asin(min(1, h.squareRoot()))
                let relative = abs(fit.ties[t].seamAfterMetres - seam) / seam
                seams.add(relative)
                #expect(relative <= 1e-6, "weight \(weight), tie \(t): seam \(fit.ties[t].seamAfterMetres) m, numpy's \(seam) m; \(r.replay)")
            }
            print(
                String(
                    format: "joint fit %@ weight %g vs numpy: transforms within %.1e m, seams within %.1e relative",
                    kinds.map(\.rawValue).joined(separator: "/"), weight, worst.value, seams.value))
        }
    }

    @Test func theSeamShrinksAsTheTieWeightGrowsAndVanishesWithIt() throws {
        var r = SeededRandom()
        let (sheets, ties) = Self.sheets(kinds: [.polynomial1, .polynomial1, .polynomial1], random: &r)
        let seams = try [0.01, 1, 100, 10_000].map { w in
            try #require(WorstError.of(try SeriesFit.fit(sheets: sheets, ties: ties, tieWeight: w).ties.map(\.seamAfterMetres)))
        }
        // NaN-safe maxima (WorstError): a NaN seam fails every comparison below.
        let before = try #require(WorstError.of(try SeriesFit.fit(sheets: sheets, ties: ties, tieWeight: 1).ties.map(\.seamBeforeMetres)))
        #expect(seams[0] <= before * 1.01 && seams[1] < seams[0] && seams[2] < seams[1] && seams[3] < seams[2], "\(before) \(seams); \(r.replay)")
        // Affine sheets can meet exactly at three collinear-free ties per pair: the seam goes to zero.
        #expect(seams[3] < 0.01 * seams[1], "\(seams); \(r.replay)")
    }

    @Test func aSheetThatCannotBeFittedOnItsOwnGCPsIsNamed() throws {
        var r = SeededRandom()
        var (sheets, ties) = Self.sheets(kinds: [.polynomial1, .polynomial2, .polynomial1], random: &r)
        sheets[1].gcps.gcps = Array(sheets[1].gcps.gcps.prefix(5))
        let e = #expect(throws: GeoreferenceError.self) { try SeriesFit.fit(sheets: sheets, ties: ties, tieWeight: 1) }
        #expect(e?.description.hasPrefix("sheet 's1': cannot be fitted on its own GCPs (ties add none): ") == true, "\(e?.description ?? "")")
        ties[0].pixelB = PixelPoint(x: 301, y: 10)
        sheets = Self.sheets(kinds: [.polynomial1, .polynomial1, .polynomial1], random: &r).0
        let outside = #expect(throws: GeoreferenceError.self) { try SeriesFit.fit(sheets: sheets, ties: ties, tieWeight: 1) }
        #expect(
            outside?.description.contains("ties[0]: pixel (301.0, 10.0) is outside sheet 's1' (300 × 200 pixels") == true,
            "\(outside?.description ?? "")")
    }
}
