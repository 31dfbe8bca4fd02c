import Foundation
import TegulaGeometry
import TegulaTestSupport
import Testing

@testable import TegulaMatch

/// ``OverlapTieFinder`` on pairs of the bench series (zoom 6, origin 5,48) whose found ties lay
/// together over half a pixel off the truth, and kept `ties: auto`'s true seams over 0.5 px there
/// (issue 43): two of the 1,024-sheet series, one of the 64-sheet. Each pair is remade alone (`--origin` at the first sheet's
/// cell corner: the same map, other tints) and tied from the prediction its sheets' fits on GCPs
/// 4 px off gave in the bench run (its first round's warp: the truth plus the affine error below,
/// about the overlap's middle). Ties are checked against `truth.json`.
///
/// The strips are smooth land or sea whose grey varies along the overlap and hardly across it
/// (r4c21's: a mean square step of 0.30 levels across, 0.61 along), so the correlation across is
/// nearly flat (0.9885 / 0.9897 / 0.9886 a pixel apart at the truth) and a template warped
/// through a placement turned a little matches off by part of the turn. Not the cure: the
/// template's warp alone (the true Jacobian instead of the corrected prediction's leaves
/// r4c21/r5c21 2.2 px off). The cure: correlating in real levels and re-centring, then the last
/// round run again from its own ties' drift (``OverlapTieFinder/lastRounds``; in whole levels more
/// rounds had not helped: the 64-sheet series' found ties over 0.5 px 18 → 19 and 21).
struct OverlapTieFinderApertureTests {
    /// r17c11 and r17c12 (right neighbours, the Sudd, 33° E 10° N): 9 ties, the worst 0.09 px off
    /// with the last round run three times; once, 0.79 px (0.76 without its re-centring; 0.62 px
    /// in whole levels, 0.85 before the paper check; on the bench, 2.8 px).
    @Test func tiesAlongASmoothStripFromTheBenchsPredictionLieWithinAFifthOfAPixelOfTheTruth() throws {
        let found = try Self.ties(
            origin: "33.1238,9.8065", cols: 2, rows: 1, centre: (150, 86),
            error: (x: (-0.0323, -0.0510, 4.279), y: (-0.0009, 0.0092, 1.357)))
        let ties = try #require(found, "the pair did not match")
        print(String(format: "r17c11/r17c12: %d ties, the worst %.2f px from the truth", ties.ties, ties.worst))
        #expect(ties.ties >= 3 && ties.worst <= 0.2, "\(ties.ties) ties, the worst \(ties.worst) px from the truth")
    }

    /// r4c21 and r5c21 (the Kyzylkum, 61° E 42° N): the prediction 5.2 px off across. The last
    /// round's templates met r5c21's paper a pixel or two beyond where they were found, and
    /// before ``OverlapTieFinder/clearOfPaper(a:b:half:mask:ring:)`` six ties lay 1.9–2.5 px off
    /// across (the worst 2.52), all agreeing, which no later check could see; now the pair gets
    /// no ties (named as not matching, its sheets left to their GCPs there).
    @Test func aSmoothStripPredictedFivePixelsOffAcrossGetsNoTiesRatherThanTiesTwoPixelsOff() throws {
        let found = try Self.ties(
            origin: "61.2488,42.0411", cols: 1, rows: 2, centre: (86, 150),
            error: (x: (0.0547, 0.0021, 0.726), y: (0.0066, 0.0109, 5.182)))
        let worst = found?.worst ?? 0
        print(String(format: "r4c21/r5c21: %d ties, the worst %.2f px from the truth", found?.ties ?? 0, worst))
        #expect(worst <= 0.5, "\(found?.ties ?? 0) ties, the worst \(worst) px from the truth")
    }

    /// r5c3 and r5c4 of the 64-sheet bench series (origin 5,48: the Tyrrhenian Sea, 10.6° E
    /// 39.9° N), whose nine ties lay up to 0.95 px off the truth, two 0.8–0.9 px off across at
    /// one end: the sea's grey changes by a level or two across a template, and a template
    /// warped to a fraction of a pixel and rounded to whole levels stepped differently from the
    /// window it was sought in. Correlated in real levels (``RealGreyImage``), the bench's ties
    /// lie within 0.09 px, these remade ones within 0.31 px (0.24 without the last round's
    /// re-centring, ``PointRefiner/recentres``; 1.46 px in whole levels). The
    /// prediction: numpy's least-squares affines through the bench sheets' GCPs (4 px off).
    @Test func tiesOverASeaAFewLevelsDeepCorrelatedInRealLevelsLieWithinTwoFifthsOfAPixelOfTheTruth() throws {
        let found = try Self.ties(
            origin: "10.6128,39.9266", cols: 2, rows: 1, centre: (150, 86),
            error: (x: (0.0001, 0.0613, -5.324), y: (-0.0200, 0.0197, 2.313)))
        let ties = try #require(found, "the pair did not match")
        print(String(format: "r5c3/r5c4: %d ties, the worst %.2f px from the truth", ties.ties, ties.worst))
        #expect(ties.ties >= 3 && ties.worst <= 0.4, "\(ties.ties) ties, the worst \(ties.worst) px from the truth")
    }

    /// r24c20 and r25c20 of the 1,024-sheet bench series (the Indian Ocean, 58.4° E 9.8° S), whose
    /// found ties lay up to 1.39 px off the truth there: over open sea a few levels deep each
    /// sheet's grey, rounded to whole levels, steps where the other's does not, and the steps'
    /// edges steer the correlation. Remade (other tints), its ties lay up to 1.09 px off after
    /// the last rounds in real levels and re-centred; with the rounds after them correlating both
    /// pictures smoothed (``OverlapTieFinder/smoothedRounds``), 0.34 px. The prediction: numpy's
    /// least-squares affines through the bench sheets' GCPs (4 px off).
    @Test func tiesOverOpenSeaFoundAgainWithBothPicturesSmoothedLieWithinTwoFifthsOfAPixelOfTheTruth() throws {
        let found = try Self.ties(
            origin: "58.4363,-9.7849", cols: 1, rows: 2, centre: (86, 150),
            error: (x: (0.1138, -0.0952, -1.224), y: (-0.0620, 0.0472, 3.813)))
        let ties = try #require(found, "the pair did not match")
        print(String(format: "r24c20/r25c20: %d ties, the worst %.2f px from the truth", ties.ties, ties.worst))
        #expect(ties.ties >= 3 && ties.worst <= 0.4, "\(ties.ties) ties, the worst \(ties.worst) px from the truth")
    }

    /// The two sheets of a made series at zoom 6 (cells of 128 px, overlaps of 12) tied from the
    /// truth with `error` (per axis: × x, × y about `centre`, plus a shift): the number of ties and
    /// the worst one's distance from the truth, nil when the pair does not match.
    static func ties(
        origin: String, cols: Int, rows: Int, centre: (Double, Double),
        error: (x: (Double, Double, Double), y: (Double, Double, Double))
    ) throws -> (ties: Int, worst: Double)? {
        try errors(origin: origin, cols: cols, rows: rows, centre: centre, error: error).map { ($0.count, $0.max() ?? .infinity) }
    }

    /// As ``ties(origin:cols:rows:centre:error:)``: each tie's distance from the truth.
    static func errors(
        origin: String, cols: Int, rows: Int, centre: (Double, Double),
        error: (x: (Double, Double, Double), y: (Double, Double, Double))
    ) throws -> [Double]? {
        let folder = try TemporaryFolder.make("tie-aperture").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try MadeSeries.make(in: folder, cols: cols, rows: rows, cell: 128, gcpError: 0, maxZoom: 6, extra: ["--origin=\(origin)"])
        let a = try SheetLocatorTests.Sheet(folder, "r1c1"), b = try SheetLocatorTests.Sheet(folder, cols == 2 ? "r1c2" : "r2c1")
        let predicted = OverlapTieFinder.gridPoints(a.mask).map { p in
            let t = a.truth(p, on: b), (x, y) = (p.x - centre.0, p.y - centre.1)
            let ex = error.x.0 * x + error.x.1 * y + error.x.2, ey = error.y.0 * x + error.y.1 * y + error.y.2
            return (a: p, b: PixelPoint(x: t.x + ex, y: t.y + ey))
        }
        let verdict = try OverlapTieFinder.ties(a: a.reader, maskA: a.mask, b: b.reader, maskB: b.mask, predicted: predicted)
        return SheetLocatorTests.errors(verdict, a, b)
    }
}
