import Foundation
import TegulaTestSupport
import Testing

/// `tegula georef --footprint` writes the mask (else the scan's border) through the fit as a
/// GeoJSON polygon refined as Allmaps refines it (issue 45 item 4), for an annotation, a
/// GeoreferencedMap and every GCP form, the same polygon the report holds. The oracle is Python's
/// own: the GCPs projected to EPSG:3857 by OGR, a TPS or polynomial fitted with numpy, its outline
/// refined by Allmaps' rule written afresh and also densified to 2,000 points an edge; areas and
/// IoU by OGR.
@Suite(.timeLimit(.minutes(20)))
struct FootprintCLITests {
    /// Reads a case (`gcps` [px, py, lon, lat], `outline` [px, py], `kind`, `depth`, `ratio`) and a
    /// footprint GeoJSON; prints the IoU with Allmaps' refinement and with the dense outline.
    static let oracle = """
        import json, sys, math
        import numpy as np
        from osgeo import ogr, osr
        case = json.load(open(sys.argv[1])); fp = json.load(open(sys.argv[2]))
        ll = osr.SpatialReference(); ll.ImportFromEPSG(4326); ll.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
        wm = osr.SpatialReference(); wm.ImportFromEPSG(3857); wm.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
        to_wm = osr.CoordinateTransformation(ll, wm); to_ll = osr.CoordinateTransformation(wm, ll)
        g = np.array(case["gcps"], dtype=float)
        P = g[:, :2]
        G = np.array([to_wm.TransformPoint(lon, lat)[:2] for lon, lat in g[:, 2:]])
        if case["kind"] == "tps":
            n = len(P)
            d2 = ((P[:, None, :] - P[None, :, :]) ** 2).sum(-1)
            K = np.where(d2 > 0, d2 * np.log(np.where(d2 > 0, d2, 1)), 0.0)
            A = np.zeros((n + 3, n + 3)); A[:n, :n] = K; A[:n, n] = 1; A[:n, n + 1:] = P; A[n, :n] = 1; A[n + 1:, :n] = P.T
            W = np.linalg.solve(A, np.vstack([G, np.zeros((3, 2))]))
            def f(x, y):
                d = (P[:, 0] - x) ** 2 + (P[:, 1] - y) ** 2
                k = np.where(d > 0, d * np.log(np.where(d > 0, d, 1)), 0.0)
                return k @ W[:n] + W[n] + x * W[n + 1] + y * W[n + 2]
        else:
            order = int(case["kind"][-1])
            terms = lambda x, y: [x ** i * y ** j for i in range(order + 1) for j in range(order + 1 - i)]
            C = np.linalg.lstsq(np.array([terms(x, y) for x, y in P]), G, rcond=None)[0]
            f = lambda x, y: np.array(terms(x, y)) @ C
        def lonlat(p):
            x, y = f(*p)
            return to_ll.TransformPoint(float(x), float(y))[:2]
        def polygon(points):
            ring = ogr.Geometry(ogr.wkbLinearRing)
            for lon, lat in points: ring.AddPoint_2D(lon, lat)
            ring.CloseRings(); poly = ogr.Geometry(ogr.wkbPolygon); poly.AddGeometry(ring); return poly
        outline = case["outline"]
        edges = [(outline[i], outline[(i + 1) % len(outline)]) for i in range(len(outline))]
        dense = [lonlat((a[0] + (b[0] - a[0]) * k / 2000, a[1] + (b[1] - a[1]) * k / 2000)) for a, b in edges for k in range(2000)]
        def split(a, b, depth, out):
            # Halve while the mapped midpoint lies off the mapped chord's midpoint by more than ratio x the chord.
            if depth >= case["depth"]: return
            s = ((a[0][0] + b[0][0]) / 2, (a[0][1] + b[0][1]) / 2); m = lonlat(s)
            chord = math.dist(a[1], b[1]); off = math.dist(m, ((a[1][0] + b[1][0]) / 2, (a[1][1] + b[1][1]) / 2))
            if chord == 0 or off / chord <= case["ratio"]: return
            split(a, (s, m), depth + 1, out); out.append(m); split((s, m), b, depth + 1, out)
        refined = []
        for a, b in edges:
            ea, eb = (a, lonlat(a)), (b, lonlat(b))
            refined.append(ea[1]); split(ea, eb, 0, refined)
        ours = ogr.CreateGeometryFromJson(json.dumps(fp["geometry"]))
        iou = lambda p, q: p.Intersection(q).GetArea() / p.Union(q).GetArea()
        print(json.dumps({"allmaps": iou(ours, polygon(refined)), "truth": iou(ours, polygon(dense)),
                          "points": ours.GetGeometryRef(0).GetPointCount(), "allmaps_points": len(refined) + 1}))
        """

    /// The oracle's figures for `footprint` (a GeoJSON file) of a fit of `gcps` by `kind`.
    static func compare(
        _ footprint: String, gcps: [[Double]], outline: [[Double]], kind: String, depth: Int = 5, ratio: Double = 0.01,
        in dir: URL
    ) throws -> [String: Double] {
        let casePath = dir.appendingPathComponent("case.json").path
        try JSONSerialization.data(withJSONObject: ["gcps": gcps, "outline": outline, "kind": kind, "depth": depth, "ratio": ratio])
            .write(to: URL(fileURLWithPath: casePath))
        let out = try ProgramRun.output("python3", ["-c", oracle, casePath, footprint])
        return try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Double])
    }

    /// The GeoJSON's ring and the report's `footprint` hold the same points (the GeoJSON's turned
    /// counterclockwise).
    static func samePolygon(_ footprint: String, report: String) throws -> Bool {
        let f = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: footprint))) as? [String: Any])
        let ring = ((f["geometry"] as? [String: Any])?["coordinates"] as? [[[Double]]])?.first ?? []
        let r = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
        let held = r["footprint"] as? [[Double]] ?? []
        return ring.count >= 4 && ring.count == held.count && Set(ring.map { "\($0)" }) == Set(held.map { "\($0)" })
    }

    /// Corners of a 400 × 300 scan near Leiden with its centre pulled west, so a TPS bends the border.
    static let scanGCPs: [[Double]] = [
        [0, 0, 4.40, 52.22], [400, 0, 4.60, 52.21], [400, 300, 4.61, 52.10], [0, 300, 4.41, 52.11],
        [200, 150, 4.47, 52.17], [100, 220, 4.45, 52.13], [320, 60, 4.56, 52.2],
    ]

    /// The scan's GCPs in every GCP form, each file named for its form.
    static func gcpForms(in dir: URL, scan: String) throws -> [(form: String, args: [String])] {
        let g = scanGCPs
        func write(_ name: String, _ lines: [String]) throws -> String {
            let path = dir.appendingPathComponent(name).path
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
        let points = try write(
            "gcps.points", ["#CRS: EPSG:4326", "mapX,mapY,sourceX,sourceY,enable"] + g.map { "\($0[2]),\($0[3]),\($0[0]),\(-$0[1]),1" })
        let csv = try write("gcps.csv", ["x,y,lon,lat"] + g.map { "\($0[0]),\($0[1]),\($0[2]),\($0[3])" })
        let gdal = try write("gcps.txt", g.map { "\($0[0]) \($0[1]) \($0[2]) \($0[3])" })
        let arcCSV = try write(
            "arcgis.csv", g.enumerated().map { "\($0.offset + 1),\($0.element[0]),\(-$0.element[1]),\($0.element[2]),\($0.element[3])" })
        let arcTSV = try write("arcgis.txt", g.map { "\($0[0])\t\(-$0[1])\t\($0[2])\t\($0[3])" })
        let vrt = dir.appendingPathComponent("gcps.vrt").path
        _ = try ProgramRun.output(
            "gdal_translate",
            ["-q", "-of", "VRT", "-a_srs", "EPSG:4326"]
                + g.flatMap { ["-gcp", "\($0[0])", "\($0[1])", "\($0[2])", "\($0[3])"] } + [scan, vrt])
        return [
            ("QGIS .points", [scan, "--gcps", points]), ("CSV", [scan, "--gcps", csv]), ("GDAL text", [scan, "--gcps", gdal]),
            ("ArcGIS CSV", [scan, "--gcps", arcCSV]), ("ArcGIS TSV", [scan, "--gcps", arcTSV]), ("VRT", [vrt]),
        ]
    }

    @Test func theFootprintOfEveryFormIsAllmapsRefinedOutlineAndTheReportsPolygon() throws {
        let dir = try TemporaryFolder.make("cli-footprint")
        defer { try? FileManager.default.removeItem(at: dir) }
        let scan = dir.appendingPathComponent("scan.tif").path
        _ = try ProgramRun.output("gdal_create", ["-of", "GTiff", "-outsize", "400", "300", "-bands", "1", "-ot", "Byte", scan])
        let border: [[Double]] = [[0, 0], [400, 0], [400, 300], [0, 300]]
        let ann = dir.appendingPathComponent("annotation.json").path
        try Data(OfflineAnnotationCLITests.annotation(service: "https://maps.invalid/iiif/scan").utf8).write(to: URL(fileURLWithPath: ann))
        let map = dir.appendingPathComponent("map.json").path
        try Data(OfflineAnnotationCLITests.georeferencedMap.utf8).write(to: URL(fileURLWithPath: map))
        let mask: [[Double]] = [[100, 120], [3900, 80], [3950, 2900], [60, 2950]]
        let big: [[Double]] = [
            [0, 0, 4.40, 52.22], [4000, 0, 4.60, 52.21], [4000, 3000, 4.61, 52.10], [0, 3000, 4.41, 52.11],
            [2000, 1500, 4.52, 52.155], [1000, 2200, 4.45, 52.13],
        ]
        var cases: [(form: String, args: [String], gcps: [[Double]], outline: [[Double]], kind: String, out: String)] = [
            ("annotation", [ann], big, mask, "tps", "json"),
            (
                "GeoreferencedMap", [map], big + [[3000, 700, 4.555, 52.19], [500, 800, 4.43, 52.185], [3200, 2500, 4.58, 52.125]], mask,
                "polynomial2", "json"
            ),
        ]
        for (form, args) in try Self.gcpForms(in: dir, scan: scan) {
            cases.append((form, args + ["--transform", "tps"], Self.scanGCPs, border, "tps", "vrt"))
        }
        for c in cases {
            let footprint = dir.appendingPathComponent("footprint.geojson").path, report = dir.appendingPathComponent("report.json").path
            let r = try TegulaBinary.run(
                ["georef"] + c.args + [
                    "-o", dir.appendingPathComponent("out.\(c.out)").path, "--report", report,
                    "--footprint", footprint,
                ])
            #expect(r.status == 0, "\(c.form): \(r.stderr)")
            #expect(try Self.samePolygon(footprint, report: report), "\(c.form)")
            let iou = try Self.compare(footprint, gcps: c.gcps, outline: c.outline, kind: c.kind, in: dir)
            print(
                "footprint of the \(c.form) (\(c.kind)): IoU \(iou["allmaps"] ?? .nan) with Allmaps' refinement (\(iou["allmaps_points"] ?? 0) points, ours \(iou["points"] ?? 0)), \(iou["truth"] ?? .nan) with the outline densified to 2,000 points an edge"
            )
            #expect((iou["allmaps"] ?? 0) >= 0.999 && iou["points"] == iou["allmaps_points"], "\(c.form): \(iou)")
        }
    }

    @Test func theDepthAndToleranceOptionsRefineTheOutlineTowardsTheTrueCurve() throws {
        let dir = try TemporaryFolder.make("cli-footprint")
        defer { try? FileManager.default.removeItem(at: dir) }
        let ann = dir.appendingPathComponent("annotation.json").path
        try Data(OfflineAnnotationCLITests.annotation(service: "https://maps.invalid/iiif/scan").utf8).write(to: URL(fileURLWithPath: ann))
        let mask: [[Double]] = [[100, 120], [3900, 80], [3950, 2900], [60, 2950]]
        let gcps: [[Double]] = [
            [0, 0, 4.40, 52.22], [4000, 0, 4.60, 52.21], [4000, 3000, 4.61, 52.10], [0, 3000, 4.41, 52.11],
            [2000, 1500, 4.52, 52.155], [1000, 2200, 4.45, 52.13],
        ]
        var truth: [Int: Double] = [:]
        for (depth, ratio) in [(0, 0.01), (5, 0.01), (8, 0.001)] {
            let footprint = dir.appendingPathComponent("footprint-\(depth).geojson").path
            let r = try TegulaBinary.run([
                "georef", ann, "-o", dir.appendingPathComponent("out.json").path, "--footprint", footprint,
                "--footprint-max-depth", "\(depth)", "--footprint-min-offset-ratio", "\(ratio)",
            ])
            #expect(r.status == 0, "\(r.stderr)")
            let iou = try Self.compare(footprint, gcps: gcps, outline: mask, kind: "tps", depth: depth, ratio: ratio, in: dir)
            print(
                "footprint, --footprint-max-depth \(depth) --footprint-min-offset-ratio \(ratio): \(iou["points"] ?? 0) points, IoU \(iou["truth"] ?? .nan) with the dense outline, \(iou["allmaps"] ?? .nan) with Allmaps' refinement"
            )
            #expect((iou["allmaps"] ?? 0) >= 0.999, "\(iou)")
            truth[depth] = iou["truth"]
        }
        #expect((truth[8] ?? 0) >= 0.999 && (truth[5] ?? 0) > (truth[0] ?? 1) && (truth[8] ?? 0) > (truth[5] ?? 1), "\(truth)")
    }
    /// A world map's border bends little at its edges' midpoints, so Allmaps' rule alone would
    /// leave its top edge one chord of about 290° of longitude, which the `/maps` lookup and
    /// GeoJSON readers take across the antimeridian. Every step stays under 90°; the oracle for
    /// where the scan lies is `gdaltransform -tps` of its centre, which the footprint must hold.
    @Test func aWorldMapsFootprintNeverStepsHalfWayRoundTheWorld() throws {
        let dir = try TemporaryFolder.make("cli-footprint")
        defer { try? FileManager.default.removeItem(at: dir) }
        let footprint = dir.appendingPathComponent("footprint.geojson").path
        let r = try TegulaBinary.run([
            "georef", Schagen1689.scan, "--gcps", Schagen1689.points, "--transform", "tps",
            "-o", dir.appendingPathComponent("out.vrt").path, "--footprint", footprint,
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let f = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: footprint))) as? [String: Any])
        let ring = try #require(((f["geometry"] as? [String: Any])?["coordinates"] as? [[[Double]]])?.first)
        let widest = zip(ring, ring.dropFirst()).map { abs($1[0] - $0[0]) }.max() ?? .infinity
        let span = (ring.map { $0[0] }.max() ?? 0) - (ring.map { $0[0] }.min() ?? 0)
        #expect(widest <= 90 && span > 270, "widest step \(widest)°, span \(span)°")
        let centre = try ProgramRun.output(
            "python3",
            [
                "-c",
                """
                import json, subprocess, sys
                from osgeo import ogr
                gcps = [l.split(",") for l in open(sys.argv[1]) if l[0].isdigit() or l[0] == "-"]
                args = sum((["-gcp", g[2], str(-float(g[3])), g[0], g[1]] for g in gcps), [])
                w, h = 2700, 1350
                x, y = subprocess.run(["gdaltransform", "-tps", "-output_xy"] + args, input=f"{w / 2} {h / 2}\\n",
                                      capture_output=True, text=True, check=True).stdout.split()[:2]
                poly = ogr.CreateGeometryFromJson(json.dumps(json.load(open(sys.argv[2]))["geometry"]))
                print(poly.Contains(ogr.CreateGeometryFromWkt(f"POINT ({x} {y})")))
                """, Schagen1689.points, footprint,
            ])
        #expect(centre.trimmingCharacters(in: .whitespacesAndNewlines) == "True", "\(centre)")
    }
}
