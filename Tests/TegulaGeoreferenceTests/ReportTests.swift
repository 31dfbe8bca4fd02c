import Foundation
import TegulaGDAL
import TegulaGeometry
import TegulaGeoreference
import Testing

/// The report's figures on cases whose answers are known (issue item 4).
struct ReportTests {
    /// GCPs in EPSG:3857 that an affine map fits exactly (not a similarity: x and y scales differ).
    static func affineSet(_ n: Int = 12) -> GCPSet {
        var s = GeoreferenceFixtures.synthetic(n)
        for i in s.gcps.indices {
            let p = s.gcps[i].pixel
            s.gcps[i].ground = GroundPoint(x: 500_000 + 2000 * p.x + 300 * p.y, y: 6_500_000 - 150 * p.x - 2500 * p.y)
        }
        s.crs = .webMercator
        return s
    }

    static func fit(_ set: GCPSet, _ kind: TransformKind? = nil, fitSRS: String? = nil) throws -> Georeference {
        try Georeferencer.fit(
            set, imageWidth: GeoreferenceFixtures.width, imageHeight: GeoreferenceFixtures.height,
            options: FitOptions(transform: kind, fitCRS: try fitSRS.map { try FitCRS(parsing: $0) }))
    }

    @Test func exactAffineDataHasZeroResidualsAndIsChosenAsAffine() throws {
        let g = try Self.fit(Self.affineSet())
        #expect(g.kind == .polynomial1, "\(g.report.chosenBy)")
        #expect(g.report.chosenBy.hasPrefix(Georeferencer.choiceRule))
        #expect(g.report.chosenBy.contains("helmert"))
        #expect(try #require(g.report.rmse.metres) < 1e-6)
        #expect(try #require(g.report.leaveOneOutRMSE.metres) < 1e-6)
        #expect(g.report.rmse.divisor == 12)
        #expect(g.report.gcps.filter(\.outlier).isEmpty)
    }

    @Test func aMisplacedGCPIsFlagged() throws {
        var set = Self.affineSet(16)
        set.gcps[5].ground.x += 60_000
        let g = try Self.fit(set, .polynomial1)
        let flagged = g.report.gcps.filter(\.outlier).map(\.id)
        #expect(flagged == ["P6"], "\(flagged)")
        #expect(g.report.warnings.contains { $0.contains("P6") })
        // RMSE is the root mean square of the listed residuals, divided by n.
        let r = g.report.gcps.map(\.residualMetres)
        let rms = (r.map { $0 * $0 }.reduce(0, +) / Double(r.count)).squareRoot()
        #expect(abs(try #require(g.report.rmse.metres) - rms) < 1e-9 * rms)
    }

    /// A sheet of a series refitted with its tie pins (``SeriesFit``): 6 GCPs a pixel or so off
    /// and 12 pins where the joint fit put them, exact here. Judged together, the pins' small
    /// leave-one-out errors made the median, and the GCPs looked like outliers (seen failing: P1
    /// and others flagged); judged apart, no GCP is, and a pin 60 km off is, named as a tie pin.
    @Test func aSheetsOwnGCPsAndItsTiePinsAreJudgedForOutliersApart() throws {
        var set = Self.affineSet(18)
        for i in 0..<6 {
            set.gcps[i].ground.x += i % 2 == 0 ? 2500 : -2500
            set.gcps[i].ground.y += Double(i % 3 - 1) * 1800
        }
        for i in 6..<18 { set.gcps[i].id = GCP.tiePinID(ties: [i - 6]) }
        let g = try Self.fit(set, .polynomial1)
        #expect(g.report.gcps.filter(\.outlier).isEmpty, "\(g.report.warnings)")
        set.gcps[8].ground.x += 60_000
        let flagged = try Self.fit(set, .polynomial1).report
        #expect(flagged.gcps.filter(\.outlier).map(\.id) == ["tie-3"], "\(flagged.warnings)")
        #expect(flagged.warnings.contains { $0.hasPrefix("tie pin tie-3 looks like an outlier") }, "\(flagged.warnings)")
    }

    @Test func disabledGCPsAreChecksNotFitted() throws {
        var set = Self.affineSet(12)
        set.gcps[3].enabled = false
        set.gcps[3].ground.y += 10_000
        let g = try Self.fit(set, .polynomial1)
        #expect(g.report.rmse.divisor == 11)
        let row = g.report.gcps[3]
        #expect(!row.enabled)
        #expect(row.leaveOneOutMetres == row.residualMetres)
        #expect(try #require(g.report.rmse.metres) < 1e-6)
    }

    @Test func thinPlateSplineResidualsAreZeroButLeaveOneOutIsNot() throws {
        let g = try Self.fit(GeoreferenceFixtures.synthetic(16), .tps)
        #expect(g.report.gcps.allSatisfy { $0.residualMetres < 1e-3 && $0.residualPixels < 1e-6 })
        #expect(try #require(g.report.leaveOneOutRMSE.metres) > 1)
        #expect(g.report.warnings.contains { $0.contains("leave-one-out") })
        #expect(g.report.pins.allSatisfy { $0.residualMetres > 0 })
    }

    @Test func distortionKnowsMercatorIsConformal() throws {
        // A similarity in EPSG:3857 is conformal on the ground; the same in plate carrée at ~50°N
        // squashes east-west by cos(latitude), an angular distortion of about 25°.
        let merc = try Self.fit(GeoreferenceFixtures.synthetic(12), .helmert)
        #expect(merc.report.distortion.maxAngularDistortionDegrees < 0.01)
        let plate = try Self.fit(GeoreferenceFixtures.synthetic(12), .helmert, fitSRS: "gcp")
        #expect(plate.report.distortion.maxAngularDistortionDegrees > 15)
        #expect(merc.report.distortion.foldOverSamples == 0)
        let s = merc.report.distortion.scaleMetresPerPixel
        #expect(s.count == 3 && s[0] <= s[1] && s[1] <= s[2] && s[0] > 100)
    }

    @Test func footprintIsTheImageBorderInDegrees() throws {
        let g = try Self.fit(GeoreferenceFixtures.synthetic(12), .polynomial2)
        let f = g.report.footprint
        // Allmaps' refinement: the 4 corners, at most 2^5 − 1 points more an edge where the fit bends it.
        #expect(f.count > 5 && f.count <= 4 * 32 + 1, "\(f.count)")
        #expect(f.first == f.last)
        let corner = try g.pixelsToGround([PixelPoint(x: 0, y: 0)], crs: .wgs84)[0]
        #expect(abs(f[0][0] - corner.x) < 1e-9 && abs(f[0][1] - corner.y) < 1e-9)
    }

    @Test func reportEncodesTheAgreedKeys() throws {
        let g = try Self.fit(GeoreferenceFixtures.synthetic(12))
        let json = try JSONSerialization.jsonObject(with: GeoreferenceWriter.reportJSON(g.report)) as! [String: Any]
        for key in [
            "transform", "chosen_by", "fit_srs", "gcp_srs", "gcps", "rmse", "leave_one_out_rmse", "distortion",
            "round_trip_max_pixels", "footprint",
        ] {
            #expect(json[key] != nil, "missing \(key)")
        }
        let first = (json["gcps"] as! [[String: Any]])[0]
        for key in ["id", "pixel", "ground", "lon", "lat", "residual_metres", "residual_pixels", "leave_one_out_metres", "outlier"] {
            #expect(first[key] != nil, "missing gcps[0].\(key)")
        }
        let rmse = json["rmse"] as! [String: Any]
        #expect(rmse["divisor"] as? Int == 12)
        #expect((rmse["divisor_is"] as? String)?.contains("n") == true)
        #expect(json["fit_srs"] as? String == "EPSG:3857")
    }

    /// The report's keys are snake_case at every depth, as the editor's API and the tiles'
    /// metadata write theirs (`--report` wrote camelCase before issue 41).
    @Test func everyKeyOfTheReportIsSnakeCase() throws {
        let g = try Self.fit(GeoreferenceFixtures.synthetic(12))
        var keys: [String] = []
        func collect(_ value: Any) {
            if let object = value as? [String: Any] {
                for (key, inner) in object { keys.append(key); collect(inner) }
            } else if let array = value as? [Any] {
                array.forEach(collect)
            }
        }
        collect(try JSONSerialization.jsonObject(with: GeoreferenceWriter.reportJSON(g.report)))
        #expect(keys.count > 40, "\(keys.count) keys")
        let notSnake = Set(keys.filter { $0.range(of: "^[a-z][a-z0-9]*(_[a-z0-9]+)*$", options: .regularExpression) == nil })
        #expect(notSnake.isEmpty, "not snake_case: \(notSnake.sorted())")
    }
}
