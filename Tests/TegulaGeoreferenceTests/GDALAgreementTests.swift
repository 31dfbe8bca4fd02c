import Foundation
import TegulaGDAL
import TegulaGeoreference
import TegulaSupport
import TegulaTestSupport
import Testing

/// Forward results equal `gdaltransform -gcp … -order N` / `-tps` when fitted in the GCPs' CRS
/// (GDAL fits in the GCPs' own CRS), on generated GCPs, inside and outside the GCP hull; and the
/// default fit, in EPSG:3857, equals GDAL's fit of the same GCPs reprojected to EPSG:3857.
@Suite(.timeLimit(.minutes(20)))
struct GDALAgreementTests {
    static func fit(_ kind: TransformKind, _ set: GCPSet) throws -> Georeference {
        try Georeferencer.fit(
            set, imageWidth: GeoreferenceFixtures.width, imageHeight: GeoreferenceFixtures.height,
            options: FitOptions(transform: kind, fitCRS: .gcp))
    }

    /// Largest |ours − GDAL| / |GDAL| over the wide grid, per coordinate.
    static func worstRelative(_ g: Georeference, method: [String]) throws -> Double {
        let pts = GeoreferenceFixtures.widePixels()
        let gdal = try GeoreferenceFixtures.gdaltransform(g.gcps, method: method, points: pts.map { ($0.x, $0.y) })
        #expect(gdal.count == pts.count)
        var worst = WorstError()
        for (p, q) in zip(pts, gdal) {
            guard let q else { Issue.record("gdaltransform failed at \(p)"); continue }
            let o = g.transform.forward(p)
            worst.add(abs(o.x - q.0) / max(abs(q.0), 1), abs(o.y - q.1) / max(abs(q.1), 1))
        }
        return worst.value
    }

    @Test(arguments: [(TransformKind.polynomial1, 1), (.polynomial2, 2), (.polynomial3, 3)])
    func polynomialsMatchGdaltransform(kind: TransformKind, order: Int) throws {
        let g = try Self.fit(kind, GeoreferenceFixtures.synthetic(16))
        let worst = try Self.worstRelative(g, method: ["-order", "\(order)"])
        print("\(kind.rawValue) vs gdaltransform -order \(order): worst relative difference \(worst)")
        #expect(worst <= 1e-9)
    }

    @Test func exactlyDeterminedPolynomialsMatch() throws {
        // 3, 6 and 10 GCPs: each polynomial interpolates; GDAL agrees.
        for (kind, n, order) in [(TransformKind.polynomial1, 3, 1), (.polynomial2, 6, 2), (.polynomial3, 10, 3)] {
            let g = try Self.fit(kind, GeoreferenceFixtures.scattered(n))
            let worst = try Self.worstRelative(g, method: ["-order", "\(order)"])
            #expect(worst <= 1e-9, "\(kind.rawValue) with \(n) GCPs: \(worst)")
        }
    }

    @Test func thinPlateSplineMatchesGdaltransform() throws {
        let g = try Self.fit(.tps, GeoreferenceFixtures.synthetic(20))
        let worst = try Self.worstRelative(g, method: ["-tps"])
        print("tps vs gdaltransform -tps: worst relative difference \(worst)")
        #expect(worst <= 2e-7)
    }

    @Test func exactInverseBeatsGdalsSeparateInverse() throws {
        // GDAL fits a second polynomial for pixel ← ground; ours inverts the forward exactly.
        let g = try Self.fit(.polynomial3, GeoreferenceFixtures.synthetic(16))
        let pts = GeoreferenceFixtures.widePixels()
        let grounds = pts.map { g.transform.forward($0) }
        let gdal = try GeoreferenceFixtures.gdaltransform(g.gcps, method: ["-order", "3"], points: grounds.map { ($0.x, $0.y) }, inverse: true)
        #expect(gdal.count == pts.count)
        // NaN-safe maxima (WorstError): a NaN from either side fails the comparison below.
        var ours = WorstError(), theirs = WorstError()
        for (i, p) in pts.enumerated() {
            if let back = g.transform.inverse(grounds[i]) { ours.add(hypot(back.x - p.x, back.y - p.y)) } else { ours.add(.infinity) }
            guard i < gdal.count, let q = gdal[i] else { Issue.record("gdaltransform -i failed at \(grounds[i])"); continue }
            theirs.add(hypot(q.0 - p.x, q.1 - p.y))
        }
        print("polynomial3 round trip over the wide grid: ours \(ours.value) px, gdaltransform -i \(theirs.value) px")
        #expect(ours.value <= 1e-6)
        #expect(theirs.value > ours.value)
    }

    /// The default fitting CRS is EPSG:3857, not the GCPs' own: GDAL makes the same fit when the
    /// GCPs are reprojected to EPSG:3857 first (by GDAL's own `gdaltransform -s_srs EPSG:4326
    /// -t_srs EPSG:3857`) and stored in a VRT whose GCPList is in EPSG:3857; `gdaltransform` on
    /// that raster then maps pixels to EPSG:3857 metres, which our default fit must equal.
    @Test(arguments: [
        (TransformKind.polynomial1, ["-order", "1"], 1e-11), (.polynomial2, ["-order", "2"], 1e-11),
        (.polynomial3, ["-order", "3"], 1e-11), (.tps, ["-tps"], 1e-11),
    ])
    func defaultFitInWebMercatorMatchesGdalOnGCPsReprojected(kind: TransformKind, method: [String], tolerance: Double) throws {
        let set = GeoreferenceFixtures.synthetic(kind == .tps ? 20 : 16)
        let g = try Georeferencer.fit(
            set, imageWidth: GeoreferenceFixtures.width, imageHeight: GeoreferenceFixtures.height,
            options: FitOptions(transform: kind))
        #expect(g.fitCRS == .webMercator, "the default fitting CRS")
        let lonLat = set.enabled.map { "\($0.ground.x) \($0.ground.y)" }.joined(separator: "\n") + "\n"
        let metres = try ProgramRun.output("gdaltransform", ["-s_srs", "EPSG:4326", "-t_srs", "EPSG:3857"], stdin: lonLat)
            .split(separator: "\n").map { $0.split(separator: " ").compactMap { Double($0) } }
        try #require(metres.count == set.enabled.count && metres.allSatisfy { $0.count >= 2 }, "\(metres)")
        let gcps = zip(set.enabled, metres).map { gcp, m in
            "<GCP Id=\"\(gcp.id)\" Pixel=\"\(gcp.pixel.x)\" Line=\"\(gcp.pixel.y)\" X=\"\(m[0])\" Y=\"\(m[1])\"/>"
        }.joined(separator: "\n")
        let dir = try TemporaryFolder.make("georef")
        defer { try? FileManager.default.removeItem(at: dir) }
        let vrt = try GeoreferenceFixtures.write(
            """
            <VRTDataset rasterXSize="\(GeoreferenceFixtures.width)" rasterYSize="\(GeoreferenceFixtures.height)">
              <GCPList Projection="EPSG:3857">
            \(gcps)
              </GCPList>
              <VRTRasterBand dataType="Byte" band="1"/>
            </VRTDataset>
            """, "gcps3857.vrt", in: dir)
        let pts = GeoreferenceFixtures.widePixels()
        let out = try ProgramRun.output("gdaltransform", method + [vrt], stdin: pts.map { "\($0.x) \($0.y)" }.joined(separator: "\n") + "\n")
        let gdal = out.split(separator: "\n").map { $0.split(separator: " ").compactMap { Double($0) } }
        #expect(gdal.count == pts.count)
        let ours = try g.pixelsToGround(pts, crs: .webMercator)
        var worst = WorstError()
        for (i, p) in pts.enumerated() {
            guard i < gdal.count, gdal[i].count >= 2 else { Issue.record("gdaltransform failed at \(p)"); continue }
            let q = gdal[i], o = ours[i]
            worst.add(abs(o.x - q[0]) / max(abs(q[0]), 1), abs(o.y - q[1]) / max(abs(q[1]), 1))
        }
        print("\(kind.rawValue) in EPSG:3857 (default) vs gdaltransform on GCPs in EPSG:3857: worst relative difference \(worst.value)")
        #expect(worst.value <= tolerance)
    }
}
