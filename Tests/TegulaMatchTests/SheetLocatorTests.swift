import Foundation
import TegulaGeometry
import TegulaScan
import TegulaTestSupport
import Testing

@testable import TegulaMatch

/// ``SheetLocator``'s paths for a sheet whose neighbour's side is not known (a series whose names
/// make no grid): the strip along each side in turn, and the two whole sheets' SIFT features
/// through a similarity. On series made by scripts/make-series at zoom 4 (184- or 208-px maps,
/// exact truth); every tie checked against where the generator's `truth.json` puts it.
struct SheetLocatorTests {
    /// A 3 × 3 series with `overlap` px of map past every cell edge, in a new folder.
    static func series(_ label: String, overlap: Int) throws -> String {
        let folder = try TemporaryFolder.make(label).path
        try MadeSeries.make(in: folder, cols: 3, rows: 3, gcpError: 0, maxZoom: 4, extra: ["--overlap", "\(overlap)"])
        return folder
    }

    /// The scan of `name`, its map outline (the neatline the generator drew `collar` px inside
    /// its border) and its true map (scan pixel → EPSG:3857) from `truth.json`.
    struct Sheet {
        let reader: any ScanReader
        let mask: [PixelPoint]
        let x0: Double, y0: Double, res: Double

        init(_ folder: String, _ name: String) throws {
            reader = try LocalScans().open(folder + "/scans/\(name).tif").reader()
            let (c, w, h) = (10.0, Double(reader.width), Double(reader.height))
            mask = [PixelPoint(x: c, y: c), PixelPoint(x: w - c, y: c), PixelPoint(x: w - c, y: h - c), PixelPoint(x: c, y: h - c)]
            let truth = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/truth.json"))) as! [String: Any]
            let t = (truth["sheets"] as! [String: [String: Any]])[name]!
            (x0, y0, res) = (t["x0"] as! Double, t["y0"] as! Double, t["res"] as! Double)
        }

        /// Where the truth puts this sheet's pixel `p` on `other`'s scan.
        func truth(_ p: PixelPoint, on other: Sheet) -> PixelPoint {
            PixelPoint(x: (x0 + p.x * res - other.x0) / other.res, y: (other.y0 - (y0 - p.y * res)) / other.res)
        }
    }

    /// The ties of a verdict and the worst one's distance from the truth, pixels of the neighbour.
    static func worst(_ verdict: MatchVerdict?, _ sheet: Sheet, _ neighbour: Sheet) -> (ties: Int, worst: Double)? {
        errors(verdict, sheet, neighbour).map { ($0.count, $0.max() ?? .infinity) }
    }

    /// Each tie's distance from the truth, pixels of the neighbour; nil when the verdict is no match.
    static func errors(_ verdict: MatchVerdict?, _ sheet: Sheet, _ neighbour: Sheet) -> [Double]? {
        guard case .matched(let points, _) = verdict else { return nil }
        return points.map { p in
            let t = sheet.truth(p.scan, on: neighbour)
            return hypot(p.reference.x - t.x, p.reference.y - t.y)
        }
    }

    static let neighbours = ["r2c1", "r2c3", "r1c2", "r3c2"]

    @Test func withTheSideUnknownEachOfTheFourNeighboursIsFoundOnItsSideAndTiedWhereTheTruthPutsIt() throws {
        let folder = try Self.series("locator-side", overlap: 12)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let sheet = try Sheet(folder, "r2c2")
        for name in Self.neighbours {
            let neighbour = try Sheet(folder, name)
            let verdict = try SheetLocator.ties(
                sheet: sheet.reader, mask: sheet.mask, neighbour: neighbour.reader, neighbourMask: neighbour.mask, side: nil)
            let found = try #require(Self.worst(verdict, sheet, neighbour), "r2c2 against \(name): \(verdict)")
            #expect(found.ties >= 3 && found.worst <= 0.5, "r2c2 against \(name): \(found.ties) ties, worst \(found.worst) px from the truth")
        }
    }

    @Test func theWholeSheetsFeaturesPlaceEachNeighbourWhereTheTruthPutsItAndTakeAQuarterTurn() throws {
        // 24-px overlaps (48 px of shared map): at 12 px SIFT finds too few matches in the band.
        let folder = try Self.series("locator-features", overlap: 24)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let sheet = try Sheet(folder, "r2c2")
        for name in Self.neighbours {
            let neighbour = try Sheet(folder, name)
            let verdict = try SheetLocator.byFeatures(
                sheet: sheet.reader, mask: sheet.mask, neighbour: neighbour.reader, neighbourMask: neighbour.mask,
                settings: OverlapTieSettings(), match: MatchSettings())
            let found = try #require(Self.worst(verdict, sheet, neighbour), "r2c2 against \(name): \(verdict)")
            #expect(found.ties >= 3 && found.worst <= 0.5, "r2c2 against \(name): \(found.ties) ties, worst \(found.worst) px from the truth")
        }
        // r2c2 scanned a quarter turn anticlockwise (numpy's rot90): the features' similarity
        // turns it back, within a pixel of the truth over the whole map.
        try ProgramRun.output("/usr/bin/python3", ["-c", Self.quarterTurn, folder + "/scans/r2c2.tif"])
        let turned = try Sheet(folder, "r2c2"), w = Double(turned.reader.width)
        for name in Self.neighbours {
            let neighbour = try Sheet(folder, name)
            let (a, fa) = try Matcher.reduced(turned.reader, longSide: MatchSettings().reducedLongSide)
            let (b, fb) = try Matcher.reduced(neighbour.reader, longSide: MatchSettings().reducedLongSide)
            let pairs = try MatchEngine.features(a, b, settings: MatchSettings()).inliers.map {
                MatchEngine.Pair(
                    a: PixelPoint(x: $0.a.x / fa.x, y: $0.a.y / fa.y), b: PixelPoint(x: $0.b.x / fb.x, y: $0.b.y / fb.y), distinctiveness: 0)
            }
            let s = try #require(SheetLocator.similarity(pairs), "r2c2 turned against \(name): \(pairs.count) feature matches")
            // The turned scan's pixel (x, y) was the pixel (w − y, x) of the scan as made.
            let worst = OverlapTieFinder.gridPoints(turned.mask).map { p in
                let t = sheet.truth(PixelPoint(x: w - p.y, y: p.x), on: neighbour), q = s.apply(p)
                return hypot(q.x - t.x, q.y - t.y)
            }
            .max()!
            #expect(pairs.count >= SheetLocator.minimumInliers && worst <= 1, "r2c2 turned against \(name): \(pairs.count) matches, \(worst) px off")
        }
    }

    /// numpy's rot90 of a scan, in place (GDAL writes it back as a deflate GeoTIFF), run by Debian's
    /// Python, whose osgeo.gdal_array works with its numpy (as scripts/make-series).
    static let quarterTurn = """
        import sys
        import numpy as np
        from osgeo import gdal
        gdal.UseExceptions()
        ds = gdal.Open(sys.argv[1])
        pixels = np.rot90(ds.ReadAsArray(), 1, axes=(1, 2)).copy()
        ds = None
        out = gdal.GetDriverByName("GTiff").Create(sys.argv[1], pixels.shape[2], pixels.shape[1], pixels.shape[0], gdal.GDT_Byte, ["COMPRESS=DEFLATE"])
        for i, band in enumerate(pixels):
            out.GetRasterBand(i + 1).WriteArray(band)
        out = None
        """
}
