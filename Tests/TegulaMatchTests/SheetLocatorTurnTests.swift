import Foundation
import TegulaGeometry
import TegulaScan
import TegulaTestSupport
import Testing

@testable import TegulaMatch

/// A sheet scanned a quarter turn round (numpy's rot90 of r1c2 on a 2 × 1 series made by
/// scripts/make-series at zoom 4, 24-px overlaps), tied to its neighbour from predictions that are
/// not exact: the features' similarity, and the truth put up to 1 % and 2 degrees off. Every tie is
/// checked against where the generator's `truth.json` puts it; a sheet of another place is refused.
struct SheetLocatorTurnTests {
    /// The series with r1c2 turned a quarter turn anticlockwise; its folder.
    static func series() throws -> String {
        let folder = try TemporaryFolder.make("locator-turn").path
        try MadeSeries.make(in: folder, cols: 2, rows: 1, gcpError: 0, maxZoom: 4, extra: ["--overlap", "24"])
        try ProgramRun.output("/usr/bin/python3", ["-c", SheetLocatorTests.quarterTurn, folder + "/scans/r1c2.tif"])
        return folder
    }

    /// The worst of a verdict's ties from the truth, pixels of the neighbour: the turned scan's
    /// pixel (x, y) was the pixel (w − y, x) of r1c2 as made. Nil when the verdict has no ties.
    static func worst(_ verdict: MatchVerdict?, _ sheet: SheetLocatorTests.Sheet, _ neighbour: SheetLocatorTests.Sheet) -> (ties: Int, worst: Double)?
    {
        guard case .matched(let points, _) = verdict else { return nil }
        let w = Double(sheet.reader.width)
        let errors = points.map { p in
            let t = sheet.truth(PixelPoint(x: w - p.scan.y, y: p.scan.x), on: neighbour)
            return hypot(p.reference.x - t.x, p.reference.y - t.y)
        }
        return (points.count, errors.max() ?? .infinity)
    }

    @Test func aQuarterTurnedSheetIsTiedFromPredictionsUpToOnePercentAndTwoDegreesOff() throws {
        let folder = try Self.series()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let sheet = try SheetLocatorTests.Sheet(folder, "r1c2"), neighbour = try SheetLocatorTests.Sheet(folder, "r1c1")
        // The whole path: the strip (which takes no turn) does not tie it; the features do.
        let verdict = try SheetLocator.ties(
            sheet: sheet.reader, mask: sheet.mask, neighbour: neighbour.reader, neighbourMask: neighbour.mask, side: .left)
        let found = try #require(Self.worst(verdict, sheet, neighbour), "turned r1c2 against r1c1: \(verdict)")
        #expect(found.ties >= 3 && found.worst <= 0.5, "turned r1c2 against r1c1: \(found.ties) ties, worst \(found.worst) px from the truth")
        // The truth turned and scaled about the sheet's centre: the prediction off by up to 1 %
        // and 2 degrees (about 1 and 3.5 px at the overlap).
        let w = Double(sheet.reader.width), c = w / 2
        for (scale, degrees) in [(0.99, -2.0), (0.998, 2.0), (1.002, -2.0), (1.01, 2.0)] {
            let (cs, sn) = (scale * cos(degrees * .pi / 180), scale * sin(degrees * .pi / 180))
            let predicted = OverlapTieFinder.gridPoints(sheet.mask).map { p -> (a: PixelPoint, b: PixelPoint) in
                let q = PixelPoint(x: c + cs * (p.x - c) - sn * (p.y - c), y: c + sn * (p.x - c) + cs * (p.y - c))
                return (a: p, b: sheet.truth(PixelPoint(x: w - q.y, y: q.x), on: neighbour))
            }
            let v = try OverlapTieFinder.ties(a: sheet.reader, maskA: sheet.mask, b: neighbour.reader, maskB: neighbour.mask, predicted: predicted)
            let tied = try #require(Self.worst(v, sheet, neighbour), "scale \(scale), \(degrees)°: \(String(describing: v))")
            #expect(tied.ties >= 3 && tied.worst <= 0.5, "scale \(scale), \(degrees)°: \(tied.ties) ties, worst \(tied.worst) px from the truth")
        }
    }

    @Test func aQuarterTurnedSheetIsNotTiedToASheetOfAnotherPlace() throws {
        let folder = try Self.series()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let elsewhere = folder + "/elsewhere"
        try MadeSeries.make(in: elsewhere, cols: 2, rows: 1, gcpError: 0, maxZoom: 4, extra: ["--overlap", "24", "--origin", "20,-10"])
        let sheet = try SheetLocatorTests.Sheet(folder, "r1c2"), other = try SheetLocatorTests.Sheet(elsewhere, "r1c1")
        let verdict = try SheetLocator.ties(sheet: sheet.reader, mask: sheet.mask, neighbour: other.reader, neighbourMask: other.mask, side: nil)
        #expect(Self.worst(verdict, sheet, other) == nil, "turned r1c2 tied to a sheet of another place: \(verdict)")
    }
}
