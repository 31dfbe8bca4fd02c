import Foundation
import TegulaGeometry
import TegulaScan
import TegulaTestSupport
import Testing

@testable import TegulaMatch

/// ``SheetLocator`` with the neighbour's side known, where the strip search peaks on a
/// look-alike: on a 2 × 1 series made by scripts/make-series at zoom 4 (24-px overlaps), a copy
/// of r1c2's left strip (with noise, so the copy correlates better than the true place) is pasted
/// into r1c1 50 px west of where the strip truly lies. The tie search refuses the strip's peak;
/// the two whole sheets' features then place r1c2, every tie where the generator's
/// `truth.json` puts it.
struct SheetLocatorFalsePeakTests {
    /// How far west of the truth the look-alike is pasted, r1c1's pixels: past the tie search's
    /// radius (32 px), so no tie is found at the true place from the false peak.
    static let shift = 50

    @Test func afterAStripPeakTheTieSearchRefusesTheWholeSheetsFeaturesPlaceTheSheet() throws {
        let folder = try TemporaryFolder.make("locator-false-peak").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try MadeSeries.make(in: folder, cols: 2, rows: 1, gcpError: 0, maxZoom: 4, extra: ["--overlap", "24"])
        try ProgramRun.output("/usr/bin/python3", ["-c", Self.lookAlike, folder, "\(Self.shift)"])
        let sheet = try SheetLocatorTests.Sheet(folder, "r1c2"), neighbour = try SheetLocatorTests.Sheet(folder, "r1c1")
        let match = MatchSettings()

        // The strip peaks on the look-alike: the centre of r1c2's left strip put `shift` px off.
        let h = try #require(
            try SheetLocator.stripPrediction(
                sheet: sheet.reader, mask: sheet.mask, neighbour: neighbour.reader, neighbourMask: neighbour.mask, side: .left, match: match))
        let centre = PixelPoint(x: 19, y: Double(sheet.reader.height) / 2), truth = sheet.truth(centre, on: neighbour)
        let off = hypot(h.apply(centre).x - truth.x, h.apply(centre).y - truth.y)
        #expect(abs(off - Double(Self.shift)) < 1, "the strip's peak is \(off) px from the truth")
        // From that peak the overlap does not tie.
        let fromPeak = try OverlapTieFinder.ties(
            a: sheet.reader, maskA: sheet.mask, b: neighbour.reader, maskB: neighbour.mask,
            predicted: OverlapTieFinder.gridPoints(sheet.mask).map { (a: $0, b: h.apply($0)) })
        #expect(SheetLocatorTests.worst(fromPeak, sheet, neighbour) == nil, "tied from the false peak: \(String(describing: fromPeak))")

        let verdict = try SheetLocator.ties(
            sheet: sheet.reader, mask: sheet.mask, neighbour: neighbour.reader, neighbourMask: neighbour.mask, side: .left)
        let found = try #require(SheetLocatorTests.worst(verdict, sheet, neighbour), "r1c2 against r1c1: \(verdict)")
        #expect(found.ties >= 3 && found.worst <= 0.5, "r1c2 against r1c1: \(found.ties) ties, worst \(found.worst) px from the truth")
    }

    /// r1c2's map from 2 px inside its neatline (x 12–40, the middle 70 % of its height) given
    /// Gaussian noise (σ 12 levels, numpy's seeded generator), and that block pasted into r1c1
    /// argv[2] px west of where truth.json puts it; run by Debian's Python (as scripts/make-series).
    static let lookAlike = """
        import json, sys
        import numpy as np
        from osgeo import gdal
        gdal.UseExceptions()
        folder, shift = sys.argv[1], int(sys.argv[2])
        truth = json.load(open(folder + "/truth.json"))["sheets"]
        a, b = truth["r1c2"], truth["r1c1"]
        sheet = gdal.Open(folder + "/scans/r1c2.tif", gdal.GA_Update)
        pixels = sheet.ReadAsArray()
        h = pixels.shape[1]
        x0, x1, y0, y1 = 12, 40, int(0.15 * h), int(0.85 * h)
        noise = np.random.default_rng(43).normal(0, 12, (1, y1 - y0, x1 - x0))
        block = np.clip(np.rint(pixels[:, y0:y1, x0:x1] + noise), 0, 255).astype(np.uint8)
        for i in range(pixels.shape[0]):
            sheet.GetRasterBand(i + 1).WriteArray(block[i], x0, y0)
        sheet = None
        bx = round((a["x0"] + x0 * a["res"] - b["x0"]) / b["res"]) - shift
        by = round((b["y0"] - (a["y0"] - y0 * a["res"])) / b["res"])
        neighbour = gdal.Open(folder + "/scans/r1c1.tif", gdal.GA_Update)
        for i in range(pixels.shape[0]):
            neighbour.GetRasterBand(i + 1).WriteArray(block[i], bx, by)
        neighbour = None
        """
}
