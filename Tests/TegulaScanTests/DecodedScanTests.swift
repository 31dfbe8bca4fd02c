import Foundation
import TegulaGDAL
import TegulaSupport
import TegulaTestSupport
import Testing

@testable import TegulaScan

/// A compressed scan read through its cache of decoded blocks reads the bytes GDAL reads, decodes
/// each block once while the blocks fit the budget (also with two readers at once), and is used
/// only for the files it knows (a GeoTIFF or JPEG, RGB or RGBA, directly or through a VRT).
struct DecodedScanTests {
    static func folder() throws -> URL { try TemporaryFolder.make("decoded") }

    /// A `width` × `height` RGB GeoTIFF of the fixtures' pattern with creation `options`.
    static func tiff(_ path: String, width: Int, height: Int, bands: Int = 3, options: [String]) throws {
        let d = try Dataset.create(path: path, driver: "GTiff", width: width, height: height, bands: bands, options: options)
        var pixels = PatternGeoTIFF.pixels(width: width, height: height)
        if bands == 4 {
            var rgba = [UInt8](repeating: 0, count: width * height * 4)
            for i in 0..<(width * height) {
                for c in 0..<3 { rgba[i * 4 + c] = pixels[i * 3 + c] }
                rgba[i * 4 + 3] = UInt8(i % 251)
            }
            pixels = rgba
        }
        try d.writeBytes(x: 0, y: 0, width: width, height: height, bands: Array(1...bands), from: pixels)
    }

    /// The window as GDAL reads it and as the cache gives it.
    static func both(_ path: String, _ scan: DecodedScan, x: Int, y: Int, w: Int, h: Int) throws -> ([UInt8], [UInt8]) {
        let raster = try SourceRaster(path: path)
        var gdal = [UInt8](repeating: 7, count: w * h * 4), cached = [UInt8](repeating: 9, count: w * h * 4)
        try gdal.withUnsafeMutableBufferPointer {
            try raster.readRGBA(x: x, y: y, width: w, height: h, bufferWidth: w, bufferHeight: h, into: $0.baseAddress!)
        }
        try cached.withUnsafeMutableBufferPointer {
            try scan.readRGBA(x: x, y: y, width: w, height: h, into: $0.baseAddress!, using: raster)
        }
        return (gdal, cached)
    }

    /// Bytes that differ (a failing `==` on arrays this size spends minutes on its diff).
    static func differing(_ a: [UInt8], _ b: [UInt8]) -> Int {
        a.count == b.count ? zip(a, b).reduce(0) { $0 + ($1.0 == $1.1 ? 0 : 1) } : max(a.count, b.count)
    }

    @Test(arguments: [
        (["TILED=YES", "BLOCKXSIZE=32", "BLOCKYSIZE=16", "COMPRESS=DEFLATE"], 3),
        (["TILED=YES", "BLOCKXSIZE=48", "BLOCKYSIZE=32", "COMPRESS=LZW"], 4),
        (["TILED=YES", "BLOCKXSIZE=64", "BLOCKYSIZE=16", "COMPRESS=LZW", "PREDICTOR=2"], 3),
        (["COMPRESS=LZW", "BLOCKYSIZE=5", "PREDICTOR=2"], 4),
        (["COMPRESS=LZW", "BLOCKYSIZE=7"], 3),
        (["COMPRESS=DEFLATE", "BLOCKYSIZE=5"], 3),
        (["TILED=YES", "BLOCKXSIZE=32", "BLOCKYSIZE=32", "COMPRESS=JPEG", "PHOTOMETRIC=YCBCR"], 3),
    ])
    func windowsReadWhatGDALReads(options: [String], bands: Int) throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("scan.tif").path
        try Self.tiff(path, width: 301, height: 203, bands: bands, options: options)
        let scan = try #require(DecodedScan(path: path, budgetBytes: 1 << 20))
        // LZW and DEFLATE blocks are decoded by TIFFBlockReader, not GDAL.
        #expect(scan.decodesTIFFBlocks == (options.contains("COMPRESS=LZW") || options.contains("COMPRESS=DEFLATE")))
        // Corners, edges, windows across unit edges, odd widths (the SSSE3 loop's tail), the whole scan.
        for (x, y, w, h) in [(0, 0, 301, 203), (0, 0, 1, 1), (300, 202, 1, 1), (17, 5, 7, 9), (250, 190, 51, 13), (1, 100, 299, 3), (31, 15, 2, 2)] {
            let (gdal, cached) = try Self.both(path, scan, x: x, y: y, w: w, h: h)
            #expect(Self.differing(gdal, cached) == 0, "\(options) window \(x),\(y) \(w)×\(h)")
        }
    }

    @Test func anLZWFileOneTileWideIsDecodedInRowsOfTiles() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("scan.tif").path
        // 30 px wide in 32-px tiles: units span the width, each tile cut by the right edge.
        try Self.tiff(path, width: 30, height: 100, options: ["TILED=YES", "BLOCKXSIZE=32", "BLOCKYSIZE=32", "COMPRESS=LZW"])
        let scan = try #require(DecodedScan(path: path, budgetBytes: 1 << 20))
        #expect(scan.decodesTIFFBlocks && scan.decodesWholeRows)
        let (gdal, cached) = try Self.both(path, scan, x: 0, y: 0, w: 30, h: 100)
        #expect(Self.differing(gdal, cached) == 0)
    }

    @Test(arguments: ["LZW", "DEFLATE"])
    func aCorruptBlockIsLeftToGDALWhichNamesTheFile(compression: String) throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("scan.tif").path
        try Self.tiff(path, width: 128, height: 64, options: ["TILED=YES", "BLOCKXSIZE=64", "BLOCKYSIZE=64", "COMPRESS=\(compression)"])
        let blocks = try #require(try Dataset(path: path).tiffBlocks())
        // The second tile after its first few bytes all ones: LZW codes never assigned, a DEFLATE
        // block type that does not exist.
        let e = try #require(blocks.extent(column: 1, row: 0))
        let file = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        try file.seek(toOffset: UInt64(e.offset + 4))
        try file.write(contentsOf: Data(repeating: 0xFF, count: e.size - 4))
        try file.close()
        let scan = try #require(DecodedScan(path: path, budgetBytes: 1 << 20))
        #expect(scan.decodesTIFFBlocks)
        var out = [UInt8](repeating: 0, count: 64 * 64 * 4)
        let raster = try SourceRaster(path: path)
        // The first tile is whole; the second fails in GDAL as it does without the cache.
        try out.withUnsafeMutableBufferPointer { try scan.readRGBA(x: 0, y: 0, width: 64, height: 64, into: $0.baseAddress!, using: raster) }
        let error = #expect(throws: (any Error).self) {
            try out.withUnsafeMutableBufferPointer { try scan.readRGBA(x: 64, y: 0, width: 64, height: 64, into: $0.baseAddress!, using: raster) }
        }
        #expect("\(error.map { "\($0)" } ?? "")".contains("scan.tif"))
    }

    @Test func aJPEGFileIsDecodedInRowsThroughAPassThroughVRT() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let tif = dir.appendingPathComponent("scan.tif").path
        try Self.tiff(tif, width: 200, height: 150, options: [])
        let jpg = dir.appendingPathComponent("scan.jpg").path
        let vrt = dir.appendingPathComponent("scan.vrt").path
        try Dataset(path: tif).copy(to: jpg, driver: "JPEG")
        try Dataset(path: jpg).copy(to: vrt, driver: "VRT")
        let scan = try #require(DecodedScan(path: vrt, budgetBytes: 1 << 20))
        #expect(scan.unitWidth == 200 && scan.unitHeight == 64)
        // Bottom first, then the top: the one decoder starts over, the pixels are GDAL's.
        for (x, y, w, h) in [(10, 140, 100, 10), (0, 0, 200, 150), (199, 63, 1, 2)] {
            let (gdal, cached) = try Self.both(vrt, scan, x: x, y: y, w: w, h: h)
            #expect(Self.differing(gdal, cached) == 0, "window \(x),\(y) \(w)×\(h)")
        }
    }

    @Test func aJPEGReadInRowsIsDecodedAheadOnceAndAsGDALReadsIt() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let tif = dir.appendingPathComponent("scan.tif").path
        try Self.tiff(tif, width: 300, height: 1000, options: [])
        let jpg = dir.appendingPathComponent("scan.jpg").path
        try Dataset(path: tif).copy(to: jpg, driver: "JPEG")
        let scan = try #require(DecodedScan(path: jpg, budgetBytes: 4 << 20))
        scan.readingInRows = true
        // The first rows asked for: the rows after them (all 16 units here: the read-ahead is a
        // quarter of the 72 units the budget holds) are decoded on their own thread.
        var first = [UInt8](repeating: 0, count: 300 * 10 * 4)
        try first.withUnsafeMutableBufferPointer {
            try scan.readRGBA(x: 0, y: 0, width: 300, height: 10, into: $0.baseAddress!, using: try SourceRaster(path: jpg))
        }
        try Poll.untilBlocking("the read-ahead to decode 16 units (\(scan.unitsDecoded) decoded)") { scan.unitsDecoded >= 16 }
        #expect(scan.unitsDecoded == 16)
        // Two readers down the scan in rows of 40 px, each row split between them: nothing is left
        // to decode.
        try ParallelWork.run(jobs: 2, count: 50, makeState: { _ in try SourceRaster(path: jpg) }) { raster, i in
            var out = [UInt8](repeating: 0, count: 150 * 40 * 4)
            try out.withUnsafeMutableBufferPointer {
                try scan.readRGBA(x: (i % 2) * 150, y: (i / 2) * 40, width: 150, height: 40, into: $0.baseAddress!, using: raster)
            }
        }
        scan.readingInRows = false
        // The units kept (all 16 fit the budget) hold GDAL's bytes; none is decoded again.
        let (gdal, cached) = try Self.both(jpg, scan, x: 0, y: 0, w: 300, h: 1000)
        #expect(Self.differing(gdal, cached) == 0)
        #expect(scan.unitsDecoded == 16)
    }

    @Test func eachBlockIsDecodedOnceByTwoReaders() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("scan.tif").path
        try Self.tiff(path, width: 256, height: 256, options: ["TILED=YES", "BLOCKXSIZE=32", "BLOCKYSIZE=32", "COMPRESS=DEFLATE"])
        let scan = try #require(DecodedScan(path: path, budgetBytes: 1 << 20))
        // Overlapping windows, every one read by both workers: 64 units in all.
        let windows = (0..<40).map { i in (x: (i * 37) % 200, y: (i * 53) % 200, w: 56, h: 56) }
        try ParallelWork.run(jobs: 2, count: 2, makeState: { _ in try SourceRaster(path: path) }) { raster, _ in
            var out = [UInt8](repeating: 0, count: 56 * 56 * 4)
            for w in windows {
                try out.withUnsafeMutableBufferPointer {
                    try scan.readRGBA(x: w.x, y: w.y, width: w.w, height: w.h, into: $0.baseAddress!, using: raster)
                }
            }
        }
        var touched = Set<Int>()
        for w in windows {
            for uy in (w.y / 32)...((w.y + w.h - 1) / 32) {
                for ux in (w.x / 32)...((w.x + w.w - 1) / 32) { touched.insert(uy * 8 + ux) }
            }
        }
        #expect(scan.unitsDecoded == touched.count)
    }

    @Test func otherFilesAreReadThroughGDAL() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let gray = dir.appendingPathComponent("gray.tif").path
        do {  // closed (flushed) before it is tried
            let d = try Dataset.create(path: gray, driver: "GTiff", width: 64, height: 64, bands: 1, options: ["COMPRESS=DEFLATE"])
            try d.writeBytes(x: 0, y: 0, width: 64, height: 64, bands: [1], from: [UInt8](repeating: 3, count: 64 * 64))
        }
        let png = dir.appendingPathComponent("scan.png").path
        let tif = dir.appendingPathComponent("scan.tif").path
        try Self.tiff(tif, width: 64, height: 64, options: ["COMPRESS=DEFLATE"])
        try Dataset(path: tif).copy(to: png, driver: "PNG")
        #expect(DecodedScan(path: gray, budgetBytes: 1 << 20) == nil)
        #expect(DecodedScan(path: png, budgetBytes: 1 << 20) == nil)
        // A unit too large for its budget (a budget under eight of them) is not cached.
        #expect(DecodedScan(path: tif, budgetBytes: 64 * 64 * 3) == nil)
        #expect(DecodedScan(path: tif, budgetBytes: 1 << 20) != nil)
    }
}
