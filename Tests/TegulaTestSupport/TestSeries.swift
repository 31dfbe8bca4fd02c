import Foundation

/// A generated map series for the seam and paper tests: one 400 × 400 px source image (paper,
/// ink lines, a water fill, each pixel's kind in `labels.u8`) on the zoom-9 pixel grid of
/// EPSG:3857, straddling the corner of four zoom-7 blocks, cut into 4 × 4 overlapping sheets.
/// Sheet (r, c) holds source pixels 96c − 12 … 96c + 124 (and the same rows): its map, 112 px
/// square, overlaps each neighbour's by 16 px, inside a 12-px collar of paper with a dark title
/// bar; the whole scan is lightened by 4 levels where r + c is even and darkened by 4 where it is
/// odd (scans of different days). Written by Debian's Python with GDAL and numpy (as
/// ``TestCollection``): `sheet-R-C.tif` (no georeference: the pipeline gives bounds and mask),
/// `sheet-0-0-geo.tif` (the same scan with its geotransform, for tools without a pipeline),
/// `source.rgb` and `labels.u8` (row-major bytes).
public struct TestSeries: Sendable {
    public let folder: String
    /// The zoom whose pixels are the source's, and the source's top-left pixel on its grid.
    public static let zoom = 9
    public static let originX = 65_536 - 200
    public static let originY = 65_536 - 200
    /// Source side, sheets per side, map pitch and overlap, collar (pixels).
    public static let side = 400
    public static let sheets = 4
    public static let pitch = 96
    public static let overlap = 16
    public static let collar = 12
    /// The paper, ink and water colours of the source (RGB).
    public static let paper: [UInt8] = [232, 222, 196]
    public static let ink: [UInt8] = [40, 36, 48]
    public static let water: [UInt8] = [140, 180, 215]
    /// Each pixel's kind in `labels`.
    public static let paperLabel: UInt8 = 0, inkLabel: UInt8 = 1, waterLabel: UInt8 = 2

    /// The tone added to sheet (r, c)'s every channel.
    public static func tone(_ r: Int, _ c: Int) -> Int { (r + c) % 2 == 0 ? 4 : -4 }
    /// The map's square in source pixels (its mask): first column or row and size.
    public static func mapStart(_ k: Int) -> Int { pitch * k }
    public static var mapSide: Int { pitch + overlap }
    /// The scan's side: the map and its collar.
    public static var scanSide: Int { mapSide + 2 * collar }

    /// Generate into `folder` (created).
    public init(in folder: String) throws {
        self.folder = folder
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try ProgramRun.output(TestCollection.python, ["-c", Self.script, folder, "\(Self.zoom)", "\(Self.originX)", "\(Self.originY)"])
    }

    /// The scan of sheet (r, c).
    public func scan(_ r: Int, _ c: Int) -> String { folder + "/sheet-\(r)-\(c).tif" }

    /// The source image (RGB) and each pixel's kind.
    public func source() throws -> (rgb: [UInt8], labels: [UInt8]) {
        (
            [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/source.rgb"))),
            [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/labels.u8")))
        )
    }

    /// Metres per pixel at ``zoom`` and the EPSG:3857 box [west, south, east, north] of sheet (r, c)'s scan.
    public static var resolution: Double { 2 * 20_037_508.342789244 / Double(256 << zoom) }
    public static func bounds(_ r: Int, _ c: Int) -> [Double] {
        let left = -20_037_508.342789244 + Double(originX + mapStart(c) - collar) * resolution
        let top = 20_037_508.342789244 - Double(originY + mapStart(r) - collar) * resolution
        let s = Double(scanSide) * resolution
        return [left, top - s, left + s, top]
    }

    /// The YAML of sheet (r, c) as a map of `maps:` (indented for the list), with its mask
    /// unless `mask` is false and `extra` lines appended under it.
    public static func map(_ r: Int, _ c: Int, mask: Bool = true, extra: String = "") -> String {
        let b = bounds(r, c).map { String(format: "%.6f", $0) }.joined(separator: ", ")
        let m0 = collar, m1 = collar + mapSide
        var text =
            "  - name: sheet-\(r)-\(c)\n    input: sheet-\(r)-\(c).tif\n    georeference:\n"
            + "      bounds: [\(b)]\n      srs: EPSG:3857\n"
        if mask { text += "      mask: [[\(m0), \(m0)], [\(m1), \(m0)], [\(m1), \(m1)], [\(m0), \(m1)]]\n" }
        return text + extra
    }

    /// Every sheet, row by row, as the `maps:` list of a pipeline.
    public static var allMaps: String {
        (0..<sheets).flatMap { r in (0..<sheets).map { c in map(r, c) } }.joined()
    }

    static let script = #"""
        import sys
        import numpy as np
        from osgeo import gdal, osr
        folder, zoom, ox, oy = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
        side, n, pitch, overlap, collar = 400, 4, 96, 16, 12
        paper, ink, water = (232, 222, 196), (40, 36, 48), (140, 180, 215)
        yy, xx = np.mgrid[0:side, 0:side]
        labels = np.zeros((side, side), np.uint8)
        labels[((xx + 5) % 24 == 0) | ((yy + 11) % 24 == 0)] = 1               # a grid of ink lines
        labels[np.abs((xx - yy) - 30) < 1] = 1                                  # a diagonal road
        labels[(xx - 260) ** 2 + (yy - 150) ** 2 < 60 ** 2] = 2                  # a lake
        labels[np.abs((xx - 260) ** 2 + (yy - 150) ** 2 - 61 ** 2) < 120] = 1    # its shore
        rgb = np.zeros((side, side, 3), np.uint8)
        for k, colour in enumerate((paper, ink, water)):
            rgb[labels == k] = colour
        rgb.tofile(folder + "/source.rgb")
        labels.tofile(folder + "/labels.u8")
        scan_side = pitch + overlap + 2 * collar
        res = 2 * 20037508.342789244 / (256 << zoom)
        for r in range(n):
            for c in range(n):
                tone = 4 if (r + c) % 2 == 0 else -4
                scan = np.empty((scan_side, scan_side, 3), np.int16)
                scan[:, :] = paper
                scan[3:7, 30:100] = ink                                          # the title in the collar
                m0, m1 = collar, collar + pitch + overlap
                scan[m0:m1, m0:m1] = rgb[pitch * r:pitch * r + pitch + overlap, pitch * c:pitch * c + pitch + overlap]
                scan = np.clip(scan + tone, 0, 255).astype(np.uint8)
                names = ["sheet-%d-%d.tif" % (r, c)] + (["sheet-0-0-geo.tif"] if r == 0 and c == 0 else [])
                for name in names:
                    ds = gdal.GetDriverByName("GTiff").Create(folder + "/" + name, scan_side, scan_side, 3, gdal.GDT_Byte)
                    for b in range(3):
                        ds.GetRasterBand(b + 1).WriteArray(scan[:, :, b])
                    if name.endswith("-geo.tif"):
                        left = -20037508.342789244 + (ox + pitch * c - collar) * res
                        top = 20037508.342789244 - (oy + pitch * r - collar) * res
                        ds.SetGeoTransform([left, res, 0, top, 0, -res])
                        srs = osr.SpatialReference()
                        srs.ImportFromEPSG(3857)
                        ds.SetProjection(srs.ExportToWkt())
                    ds = None
                if r == 0 and c == 0:
                    lab = np.zeros((scan_side, scan_side), np.uint8)
                    lab[3:7, 30:100] = 1
                    lab[m0:m1, m0:m1] = labels[0:pitch + overlap, 0:pitch + overlap]
                    lab.tofile(folder + "/sheet-0-0.labels")
        """#
}
