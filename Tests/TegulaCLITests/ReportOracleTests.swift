import Foundation
import TegulaTestSupport
import Testing

/// `tegula georef`'s `report.json` checked GCP by GCP against fits Tegula does not share code
/// with: numpy's least squares (residuals, leave-one-out errors and both RMSEs, in metres and
/// through the exact inverse in pixels) and `gdaltransform` fitted on the other n − 1 GCPs (each
/// leave-one-out error in metres). The real Schagen 1689 scan and its committed 24 GCPs, two of
/// them switched off, so the disabled GCPs' independent check is covered too.
@Suite(.timeLimit(.minutes(20)))
struct ReportOracleTests {
    /// The GCPs switched off in the copy the tests fit (1-based rows of the committed file).
    static let disabled: Set<Int> = [5, 17]

    /// The committed GCPs with ``disabled`` switched off, written into `dir`.
    static func points(in dir: URL) throws -> String {
        var row = 0
        let lines = try String(contentsOfFile: Schagen1689.points, encoding: .utf8).split(separator: "\n").map { line -> String in
            var f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard f.count > 4, Double(f[0]) != nil else { return String(line) }
            row += 1
            if Self.disabled.contains(row) { f[4] = "0" }
            return f.joined(separator: ",")
        }
        #expect(row == 24)
        let path = dir.appendingPathComponent("gcps.points").path
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// `tegula georef` of the scan with `points`; the report as JSON.
    static func report(_ points: String, _ options: [String], in dir: URL) throws -> [String: Any] {
        let report = dir.appendingPathComponent("report.json").path
        let r = try TegulaBinary.run(
            [
                "georef", Schagen1689.scan, "--gcps", points, "-o", dir.appendingPathComponent("geo.vrt").path,
                "--report", report,
            ] + options)
        try #require(r.status == 0, "\(r.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
    }

    /// The QGIS .points file's GCPs, read here: pixel (sourceX, −sourceY), lon, lat, enabled.
    static func rows(_ points: String) throws -> [(x: Double, y: Double, lon: Double, lat: Double, enabled: Bool)] {
        try String(contentsOfFile: points, encoding: .utf8).split(separator: "\n").compactMap { line in
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard f.count > 4, let lon = Double(f[0]), let lat = Double(f[1]), let x = Double(f[2]), let y = Double(f[3]) else { return nil }
            return (x, -y, lon, lat, f[4] == "1")
        }
    }

    /// numpy's figures, per GCP in file order, then the RMSEs: the polynomial of `order` fitted
    /// by `numpy.linalg.lstsq` in EPSG:3857 (the spherical Mercator formulas) on the enabled
    /// GCPs; a GCP's residual in great-circle metres on the mean sphere (R 6371008.8 m, as the
    /// report defines it) and in pixels through Newton's inverse of that polynomial; its
    /// leave-one-out error the same with the polynomial fitted without it (a disabled GCP's is
    /// its residual).
    static let numpyOracle = """
        import json, math, sys
        import numpy as np
        path, order = sys.argv[1], int(sys.argv[2])
        R = 6378137.0
        rows = []
        for line in open(path):
            f = line.rstrip("\\n").split(",")
            try:
                lon, lat, x, y = (float(v) for v in f[:4])
            except ValueError:
                continue
            rows.append((x, -y, lon, lat, f[4].strip() == "1"))
        pix = np.array([r[:2] for r in rows]); ll = np.array([r[2:4] for r in rows]); on = np.array([r[4] for r in rows])
        ground = np.column_stack([R * np.radians(ll[:, 0]), R * np.log(np.tan(np.pi / 4 + np.radians(ll[:, 1]) / 2))])
        def terms(p, m, s):
            u, v = (p[..., 0] - m[0]) / s, (p[..., 1] - m[1]) / s
            t = [np.ones_like(u), u, v] + ([u * u, u * v, v * v] if order == 2 else [])
            return np.stack(t, -1)
        def fit(use):
            m = pix[use].mean(0); s = np.abs(pix[use] - m).max()
            seed = np.linalg.lstsq(np.column_stack([np.ones(use.sum()), ground[use]]), pix[use], rcond=None)[0]
            return m, s, np.linalg.lstsq(terms(pix[use], m, s), ground[use], rcond=None)[0], seed
        def forward(f, p):
            m, s, c, _ = f
            return terms(np.asarray(p, float), m, s) @ c
        def inverse(f, g):
            m, s, c, seed = f
            p = np.array([1.0, g[0], g[1]]) @ seed
            for _ in range(60):
                u, v = (p[0] - m[0]) / s, (p[1] - m[1]) / s
                du = [0, 1, 0] + ([2 * u, v, 0] if order == 2 else []); dv = [0, 0, 1] + ([0, u, 2 * v] if order == 2 else [])
                jac = np.column_stack([np.array(du) @ c, np.array(dv) @ c]) / s
                step = np.linalg.solve(jac, forward(f, p) - g)
                p = p - step
                if np.abs(step).max() < 1e-11:
                    break
            return p
        def metres(i, g):
            lon2, lat2 = math.degrees(g[0] / R), math.degrees(2 * math.atan(math.exp(g[1] / R)) - math.pi / 2)
            lon1, lat1 = ll[i]
            dlon = math.radians((lon2 - lon1) - 360 * round((lon2 - lon1) / 360)); dlat = math.radians(lat2 - lat1)
            s = math.sin(dlat / 2) ** 2 + math.cos(math.radians(lat1)) * math.cos(math.radians(lat2)) * math.sin(dlon / 2) ** 2
            return 2 * 6371008.8 * math.asin(min(1.0, math.sqrt(s)))
        def errors(f, i):
            return metres(i, forward(f, pix[i])), float(np.hypot(*(inverse(f, ground[i]) - pix[i])))
        full = fit(on)
        out = {"gcps": []}
        for i in range(len(rows)):
            rm, rp = errors(full, i)
            if on[i]:
                use = on.copy(); use[i] = False
                lm, lp = errors(fit(use), i)
            else:
                lm, lp = rm, rp
            out["gcps"].append({"residual_m": rm, "residual_px": rp, "loo_m": lm, "loo_px": lp})
        def rms(key):
            return math.sqrt(np.mean([g[key] ** 2 for g, e in zip(out["gcps"], on) if e]))
        out.update({k: rms(k) for k in ["residual_m", "residual_px", "loo_m", "loo_px"]})
        print(json.dumps(out))
        """

    static func relative(_ a: Double?, _ b: Double?) -> Double {
        guard let a, let b else { return .nan }
        return a == b ? 0 : abs(a - b) / abs(b)
    }

    /// Per GCP, residual and leave-one-out error in metres and in pixels, and the four RMSEs,
    /// agree with numpy to 1e-6 relative; each GCP's pixel is the .points file's (sourceX,
    /// −sourceY) exactly, and the disabled GCPs' leave-one-out error is their residual.
    @Test(arguments: [("polynomial1", 1), ("polynomial2", 2)])
    func everyResidualLeaveOneOutErrorAndRMSEOfTheReportEqualsNumpysFit(transform: String, order: Int) throws {
        let dir = try TemporaryFolder.make("report-oracle")
        defer { try? FileManager.default.removeItem(at: dir) }
        let points = try Self.points(in: dir)
        let report = try Self.report(points, ["--transform", transform], in: dir)
        #expect(report["transform"] as? String == transform && (report["fit_srs"] as? String)?.contains("3857") == true, "\(report["fit_srs"] ?? "")")
        let out = try ProgramRun.output(PackageRoot.path(".venv/bin/python3"), ["-c", Self.numpyOracle, points, "\(order)"])
        let oracle = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any], "\(out)")
        let mine = try #require(report["gcps"] as? [[String: Any]]), theirs = try #require(oracle["gcps"] as? [[String: Any]])
        let rows = try Self.rows(points)
        try #require(mine.count == 24 && theirs.count == 24 && rows.count == 24, "\(mine.count) GCPs in the report, numpy \(theirs.count)")
        var worst = [String: Double]()
        for (i, (g, o)) in zip(mine, theirs).enumerated() {
            let id = g["id"] as? String ?? "#\(i + 1)"
            #expect(g["pixel"] as? [Double] == [rows[i].x, rows[i].y], "\(id): pixel")
            #expect(g["enabled"] as? Bool == rows[i].enabled && rows[i].enabled == !Self.disabled.contains(i + 1), "\(id)")
            for (key, theirKey) in [
                ("residual_metres", "residual_m"), ("residual_pixels", "residual_px"),
                ("leave_one_out_metres", "loo_m"), ("leave_one_out_pixels", "loo_px"),
            ] {
                let r = Self.relative(g[key] as? Double, o[theirKey] as? Double)
                worst[key] = max(worst[key] ?? 0, r.isNaN ? .infinity : r)
                #expect(r <= 1e-6, "\(transform) \(id): \(key) \(g[key] ?? "missing"), numpy \(o[theirKey] ?? "missing")")
            }
            if !rows[i].enabled {
                #expect(
                    g["leave_one_out_metres"] as? Double == g["residual_metres"] as? Double,
                    "\(id): disabled, so its leave-one-out error is its residual")
            }
        }
        let rmse = report["rmse"] as? [String: Any], loo = report["leave_one_out_rmse"] as? [String: Any]
        #expect(rmse?["divisor"] as? Int == 22, "the enabled GCPs")
        for (figure, key, theirKey) in [
            (rmse, "metres", "residual_m"), (rmse, "pixels", "residual_px"), (loo, "metres", "loo_m"), (loo, "pixels", "loo_px"),
        ] {
            let r = Self.relative(figure?[key] as? Double, oracle[theirKey] as? Double)
            #expect(r <= 1e-6, "\(transform) RMSE \(key) (\(theirKey)): \(figure?[key] ?? "missing"), numpy \(oracle[theirKey] ?? "missing")")
        }
        print(
            "\(transform) report vs numpy, 24 GCPs (2 disabled): worst relative differences \(worst.sorted { $0.key < $1.key }.map { "\($0.key) \(String(format: "%.1e", $0.value))" }.joined(separator: ", ")); RMSE \(rmse?["metres"] ?? "-") m, leave-one-out RMSE \(loo?["metres"] ?? "-") m"
        )
    }

    /// Fitted in the GCPs' own CRS (`--fit-srs gcp`, as GDAL fits), every enabled GCP's
    /// leave-one-out error in metres equals the great-circle distance from it to where
    /// `gdaltransform` fitted on the other n − 1 enabled GCPs puts its pixel, and every residual
    /// to where gdaltransform on all n puts it. TPS interpolates: its residuals are zero in both.
    @Test(arguments: [("polynomial2", ["-order", "2"], 1e-6), ("tps", ["-tps"], 1e-6)])
    func everyLeaveOneOutErrorOfTheReportEqualsGdaltransformFittedOnTheOtherGCPs(transform: String, method: [String], tolerance: Double) throws {
        let dir = try TemporaryFolder.make("report-gdal")
        defer { try? FileManager.default.removeItem(at: dir) }
        let points = try Self.points(in: dir)
        let report = try Self.report(points, ["--transform", transform, "--fit-srs", "gcp"], in: dir)
        #expect(report["transform"] as? String == transform)
        let mine = try #require(report["gcps"] as? [[String: Any]])
        let rows = try Self.rows(points)
        try #require(mine.count == rows.count)
        let enabled = rows.indices.filter { rows[$0].enabled }
        func gdaltransform(_ use: [Int], _ at: [Int]) throws -> [(Double, Double)] {
            let args = use.flatMap { ["-gcp", "\(rows[$0].x)", "\(rows[$0].y)", "\(rows[$0].lon)", "\(rows[$0].lat)"] } + method
            let out = try ProgramRun.output("gdaltransform", args, stdin: at.map { "\(rows[$0].x) \(rows[$0].y)" }.joined(separator: "\n") + "\n")
            let xy = out.split(separator: "\n").map { $0.split(separator: " ").compactMap { Double($0) } }
            try #require(xy.count == at.count && xy.allSatisfy { $0.count >= 2 }, "gdaltransform: \(out)")
            return xy.map { ($0[0], $0[1]) }
        }
        /// Great-circle metres on the mean sphere, the report's definition.
        func metres(_ i: Int, _ q: (Double, Double)) -> Double {
            let r = Double.pi / 180, p = rows[i]
            let s = pow(sin((q.1 - p.lat) * r / 2), 2) + cos(p.lat * r) * cos(q.1 * r) * pow(sin((q.0 - p.lon) * r / 2), 2)
            return 2 * 6371008.8 * asin(min(1, s.squareRoot()))
        }
        var worstLOO = 0.0, worstResidual = 0.0
        let all = try gdaltransform(enabled, Array(rows.indices))
        for i in rows.indices {
            let id = mine[i]["id"] as? String ?? "#\(i + 1)"
            let residual = metres(i, all[i]), ours = mine[i]["residual_metres"] as? Double ?? .nan
            // TPS: both about zero (GDAL's solve leaves ~1e-9 degrees), so an absolute bound.
            let r = transform == "tps" && rows[i].enabled ? abs(ours - residual) : Self.relative(ours, residual)
            worstResidual = max(worstResidual, r.isNaN ? .infinity : r)
            #expect(
                transform == "tps" && rows[i].enabled ? r <= 1e-3 : r <= tolerance,
                "\(transform) \(id): residual \(ours) m, gdaltransform \(residual) m")
            guard rows[i].enabled else { continue }
            let loo = metres(i, try gdaltransform(enabled.filter { $0 != i }, [i])[0])
            let l = Self.relative(mine[i]["leave_one_out_metres"] as? Double, loo)
            worstLOO = max(worstLOO, l.isNaN ? .infinity : l)
            #expect(
                l <= tolerance,
                "\(transform) \(id): leave-one-out \(mine[i]["leave_one_out_metres"] ?? "missing") m, gdaltransform on the other \(enabled.count - 1) GCPs \(loo) m"
            )
        }
        print(
            "\(transform) report vs gdaltransform \(method.joined(separator: " ")) (fit in the GCPs' CRS): leave-one-out errors agree to \(String(format: "%.1e", worstLOO)) relative (\(enabled.count) refits), residuals to \(String(format: "%.1e", worstResidual))"
        )
    }
}
