import Foundation
import TegulaGDAL
import TegulaGeoreference
import TegulaTestSupport
import Testing

/// The committed GCPs on G. van Schagen's 1689 world map (marble-qt-data), fitted with every
/// transform: the figures a 1689 map should give (issue item 7).
struct SchagenTests {
    static let points = Schagen1689.points

    static func fit(_ kind: TransformKind?) throws -> Georeference {
        try Georeferencer.fit(
            GCPReader.read(path: points), imageWidth: 2700, imageHeight: 1350,
            options: FitOptions(transform: kind))
    }

    @Test func theFileHoldsAtLeastSixteenNamedGCPs() throws {
        let set = try GCPReader.read(path: Self.points)
        #expect(set.gcps.count >= 16)
        #expect(set.crs.definition == "EPSG:4326")
        #expect(set.gcps.contains { $0.id == "Cape of Good Hope" })
        #expect(set.gcps.allSatisfy { (0...2700).contains($0.pixel.x) && (0...1350).contains($0.pixel.y) })
    }

    @Test(arguments: TransformKind.allCases)
    func everyTransformGivesASaneReport(kind: TransformKind) throws {
        let g = try Self.fit(kind)
        let r = g.report
        let rmse = try #require(r.rmse.metres), loo = try #require(r.leaveOneOutRMSE.metres)
        print(
            String(
                format:
                    "schagen1689 %@: RMSE %.0f km (%.1f px), leave-one-out RMSE %.0f km (%.1f px), max angular distortion %.1f°, fold-over samples %d, round trip %.1e px, outliers %@",
                kind.rawValue, rmse / 1000, r.rmse.pixels ?? .nan, loo / 1000, r.leaveOneOutRMSE.pixels ?? .nan,
                r.distortion.maxAngularDistortionDegrees, r.distortion.foldOverSamples, r.roundTripMaxPixels,
                r.gcps.filter(\.outlier).map(\.id).joined(separator: "; ")))
        if r.distortion.foldOverSamples == 0 {
            #expect(r.roundTripMaxPixels <= 1e-6)
        } else {
            // Where the map folds over, a ground point has two pixels: the round trip may land
            // on the other one. The report must say so.
            #expect(r.warnings.contains { $0.contains("folds over") })
        }
        #expect(r.roundTripFailures == 0)
        #expect(loo >= rmse * 0.999)
        // A 1689 world map is off by hundreds of kilometres, not by metres and not by continents.
        if kind == .tps {
            #expect(rmse < 1)
        } else {
            #expect(rmse > 50_000 && rmse < 2_000_000, "\(rmse)")
        }
        #expect(loo > 50_000 && loo < 5_000_000, "\(loo)")
        // The border refined where the fit bends it (none for an affine map in EPSG:3857 seen in degrees).
        #expect(r.footprint.count >= 5 && r.footprint.first == r.footprint.last, "\(r.footprint.count)")
    }

    @Test func polynomial1ResidualsAreInTheExpectedRange() throws {
        // Longitudes on 17th-century maps are typically wrong by 5–15 degrees across a continent.
        let r = try Self.fit(.polynomial1).report
        let m = try #require(r.rmse.metres)
        #expect(m > 200_000 && m < 1_500_000, "polynomial1 RMSE \(m) m")
    }

    @Test func theChoiceIsStatedWithEveryCandidate() throws {
        let g = try Self.fit(nil)
        #expect(g.report.chosenBy.hasPrefix(Georeferencer.choiceRule))
        for k in TransformKind.chosenAmong { #expect(g.report.chosenBy.contains(k.rawValue)) }
        print("schagen1689 chosen: \(g.kind.rawValue) — \(g.report.chosenBy)")
    }
}
