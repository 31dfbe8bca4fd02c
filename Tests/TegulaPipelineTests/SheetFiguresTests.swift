import Foundation
import TegulaGDAL
import TegulaGeometry
import Testing

@testable import TegulaGeoreference
@testable import TegulaPipeline

/// A sheet's figures and the quality gate when a residual or a seam is NaN: the worst is NaN,
/// never the largest of the rest (`max` dropped a NaN that was not first), and the gate fails
/// the sheet saying the figure is NaN.
struct SheetFiguresTests {
    /// A real fit's report: six GCPs of an affine map in EPSG:3857, each moved a little.
    static func report() throws -> GeoreferenceReport {
        let moves = [(3.0, -2.0), (-1.0, 4.0), (2.0, 2.0), (-4.0, 1.0), (0.5, -3.0), (1.0, 1.5)]
        let pixels = [(10.0, 10.0), (190.0, 15.0), (100.0, 100.0), (15.0, 185.0), (180.0, 190.0), (60.0, 140.0)]
        let gcps = zip(pixels, moves).enumerated().map { i, pm in
            GCP(
                id: "G\(i + 1)", pixel: PixelPoint(x: pm.0.0, y: pm.0.1),
                ground: GroundPoint(x: -500_000 + 100 * pm.0.0 + 100 * pm.1.0, y: 6_800_000 - 100 * pm.0.1 + 100 * pm.1.1))
        }
        return try Georeferencer.fit(
            GCPSet(gcps: gcps, crs: CRS("EPSG:3857")), imageWidth: 200, imageHeight: 200,
            options: FitOptions(transform: .polynomial1)
        ).report
    }

    static func seams(_ after: [Double]) -> [TieFigures] {
        after.enumerated().map { i, s in
            TieFigures(
                index: i, ground: [0, 50], seamBeforeMetres: 1000 + Double(i), seamAfterMetres: s, residualAMetres: s / 2, residualBMetres: s / 2)
        }
    }

    static let gate = QualitySpec(maxRMSEMetres: 1e6, maxSeamMetres: 100, onFail: .skip)

    @Test func finiteFiguresAreTheLargestSeamAndResidualAndPassTheGate() throws {
        let r = try Self.report()
        let f = SheetFigures(name: "s", report: r, pins: [], seams: Self.seams([3, 40, 7]))
        #expect(f.seamAfterMetres == 40 && f.seamBeforeMetres == 1002)
        let largest = r.gcps.max { $0.residualMetres < $1.residualMetres }!
        #expect(f.worstResidualMetres == largest.residualMetres && f.worstGCP == largest.id)
        #expect(f.exceeded(Self.gate).isEmpty, "\(f.exceeded(Self.gate))")
        #expect(SheetFigures(name: "s", report: r, pins: [], seams: []).seamAfterMetres == nil, "no ties: no seam figure")
    }

    /// The NaN first, in the middle and last: `max()` kept it only when first.
    @Test(arguments: [0, 1, 2])
    func aNaNSeamAnywhereMakesTheSeamNaNAndFailsMaxSeam(at position: Int) throws {
        var after = [3.0, 40, 7]
        after[position] = .nan
        let f = SheetFigures(name: "s", report: try Self.report(), pins: [], seams: Self.seams(after))
        #expect(f.seamAfterMetres?.isNaN == true, "seams \(after) gave \(f.seamAfterMetres.map { "\($0)" } ?? "nil")")
        let failed = f.exceeded(Self.gate)
        #expect(failed == ["seam error (m) is NaN (not a number: the fit broke), so it cannot be held to max_seam_m 100"], "\(failed)")
    }

    @Test(arguments: [0, 3, 5])
    func aNaNResidualMakesTheWorstResidualAndTheRMSENaNAndNamesItsGCP(at position: Int) throws {
        var r = try Self.report()
        r.gcps[position].residualMetres = .nan
        let f = SheetFigures(name: "s", report: r, pins: [], seams: Self.seams([3]))
        #expect(
            f.worstResidualMetres?.isNaN == true && f.worstGCP == "G\(position + 1)",
            "\(String(describing: f.worstResidualMetres)) at \(f.worstGCP ?? "-")")
        #expect(f.rmseMetres?.isNaN == true)
        let failed = f.exceeded(Self.gate)
        #expect(failed == ["RMSE (m) is NaN (not a number: the fit broke), so it cannot be held to max_rmse_m 1000000"], "\(failed)")
    }

    @Test func aTiePinIsLeftOutOfTheWorstResidualEvenWhenNaN() throws {
        var r = try Self.report()
        r.gcps[2].residualMetres = .nan
        let f = SheetFigures(name: "s", report: r, pins: ["G3"], seams: [])
        #expect(f.gcps == 5 && f.worstResidualMetres?.isFinite == true && f.worstGCP != "G3")
    }
}

/// The run's one line about sheets placed by their ties alone (``SheetIndex/placedByTies(_:)``).
struct PlacedByTiesLineTests {
    static func placed(_ name: String, hops: Int?, se: Double? = nil) -> SheetFigures {
        var f = SheetFigures(name: name, georeference: "ties")
        (f.hops, f.placeStandardErrorMetres) = (hops, se)
        return f
    }

    /// Seen failing before: "1 sheet placed by their ties alone, up to 1 tie … their rmse_m", and
    /// a missing place_se_m put down to the GCPs alone.
    @Test func oneSheetIsSpokenOfInTheSingularAndAnAbsentStandardErrorNamesBothCauses() throws {
        let one = try #require(SheetIndex.placedByTies([Self.placed("r1c2", hops: 1), SheetFigures(name: "r1c1", georeference: "gcps")]))
        #expect(
            one.hasPrefix("series: 1 sheet placed by its ties alone, 1 tie from a sheet with GCPs: its rmse_m and loo_m say how well its ties"),
            "\(one)")
        #expect(!one.contains("their rmse") && one.contains("or the ties no more than place the sheets"), "\(one)")
        let two = try #require(SheetIndex.placedByTies([Self.placed("a", hops: 1, se: 12), Self.placed("b", hops: 2, se: 40.4)]))
        #expect(two.hasPrefix("series: 2 sheets placed by their ties alone, up to 2 ties from a sheet with GCPs: their rmse_m"), "\(two)")
        #expect(two.contains("place_se_m says that (up to 40 m"), "\(two)")
    }

    /// A sheet without GCPs that its ties did not place (no hops) is not counted as placed.
    @Test func aSheetTiesDidNotPlaceIsNotCounted() {
        #expect(SheetIndex.placedByTies([Self.placed("r1c2", hops: nil)]) == nil)
    }
}
