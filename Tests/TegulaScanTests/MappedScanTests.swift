import Foundation
import TegulaGDAL
import TegulaTestSupport
import Testing

@testable import TegulaScan

/// A scan read through its file mapping reads the bytes GDAL reads, is mapped only when GDAL
/// passes the file's bands through unchanged, keeps no more of itself in the process than its
/// residency budget, and a file cut short under it is one error, not the end of the process.
struct MappedScanTests {
    static func folder() throws -> URL { try TemporaryFolder.make("mapped") }

    /// The window read through GDAL (no mapping) and through the mapping.
    static func both(_ path: String, _ scan: MappedScan, x: Int, y: Int, w: Int, h: Int) throws -> ([UInt8], [UInt8]) {
        let raster = try SourceRaster(path: path)
        var gdal = [UInt8](repeating: 7, count: w * h * 4), mapped = [UInt8](repeating: 9, count: w * h * 4)
        try gdal.withUnsafeMutableBufferPointer {
            try raster.readRGBA(x: x, y: y, width: w, height: h, bufferWidth: w, bufferHeight: h, into: $0.baseAddress!)
        }
        try mapped.withUnsafeMutableBufferPointer { try scan.readRGBA(x: x, y: y, width: w, height: h, into: $0.baseAddress!) }
        return (gdal, mapped)
    }

    @Test func windowsReadWhatGDALReads() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("scan.tif").path
        try PatternGeoTIFF.write(to: path, width: 301, height: 203, geoTransform: [0, 1, 0, 0, 0, -1], srs: "EPSG:3857")
        let scan = try #require(MappedScan(path: path))
        // Corners, edges, odd widths (the SSSE3 loop's tail), one pixel, the whole scan.
        for (x, y, w, h) in [(0, 0, 301, 203), (0, 0, 1, 1), (300, 202, 1, 1), (17, 5, 7, 9), (250, 190, 51, 13), (1, 100, 299, 3)] {
            let (gdal, mapped) = try Self.both(path, scan, x: x, y: y, w: w, h: h)
            #expect(gdal == mapped, "window \(x),\(y) \(w)×\(h)")
        }
    }

    @Test func aPassThroughVRTIsMappedFromItsFileAndOthersAreNot() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let tif = dir.appendingPathComponent("scan.tif").path
        try PatternGeoTIFF.write(to: tif, width: 120, height: 80, geoTransform: [0, 1, 0, 0, 0, -1], srs: "EPSG:3857")
        func vrt(_ name: String, source: (Int) -> String) throws -> String {
            let bands = (1...3).map { b in
                "<VRTRasterBand dataType=\"Byte\" band=\"\(b)\">\(source(b))</VRTRasterBand>"
            }.joined()
            let path = dir.appendingPathComponent(name).path
            try "<VRTDataset rasterXSize=\"120\" rasterYSize=\"80\">\(bands)</VRTDataset>".write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        let rect = "<SrcRect xOff=\"0\" yOff=\"0\" xSize=\"120\" ySize=\"80\"/><DstRect xOff=\"0\" yOff=\"0\" xSize=\"120\" ySize=\"80\"/>"
        let through = try vrt("through.vrt") {
            "<SimpleSource><SourceFilename relativeToVRT=\"1\">scan.tif</SourceFilename><SourceBand>\($0)</SourceBand>\(rect)</SimpleSource>"
        }
        let scan = try #require(MappedScan(path: through))
        let (gdal, mapped) = try Self.both(through, scan, x: 3, y: 4, w: 100, h: 70)
        #expect(gdal == mapped)
        // Bands swapped, a shifted window, a scaled source: GDAL's reads are not the file's bytes.
        let swapped = try vrt("swapped.vrt") {
            "<SimpleSource><SourceFilename relativeToVRT=\"1\">scan.tif</SourceFilename><SourceBand>\(4 - $0)</SourceBand>\(rect)</SimpleSource>"
        }
        let shifted = try vrt("shifted.vrt") {
            "<SimpleSource><SourceFilename relativeToVRT=\"1\">scan.tif</SourceFilename><SourceBand>\($0)</SourceBand><SrcRect xOff=\"1\" yOff=\"0\" xSize=\"120\" ySize=\"80\"/><DstRect xOff=\"0\" yOff=\"0\" xSize=\"120\" ySize=\"80\"/></SimpleSource>"
        }
        let scaled = try vrt("scaled.vrt") {
            "<ComplexSource><SourceFilename relativeToVRT=\"1\">scan.tif</SourceFilename><SourceBand>\($0)</SourceBand>\(rect)<ScaleRatio>0.5</ScaleRatio></ComplexSource>"
        }
        for path in [swapped, shifted, scaled] { #expect(MappedScan(path: path) == nil, "\(path)") }
    }

    /// Each file is written and closed (flushed by GDAL) before it is tried; the plain file,
    /// written the same way, is the positive control: mapped.
    @Test func compressedOrTiledFilesAreReadThroughGDAL() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        for options in [["COMPRESS=DEFLATE"], ["TILED=YES"], ["INTERLEAVE=BAND"], ["INTERLEAVE=PIXEL"]] {
            let path = dir.appendingPathComponent("\(options[0]).tif").path
            do {
                let d = try Dataset.create(path: path, driver: "GTiff", width: 64, height: 64, bands: 3, options: options)
                try d.writeBytes(x: 0, y: 0, width: 64, height: 64, bands: [1, 2, 3], from: PatternGeoTIFF.pixels(width: 64, height: 64))
            }
            let mapped = MappedScan(path: path) != nil
            #expect(mapped == (options == ["INTERLEAVE=PIXEL"]), "\(options)")
        }
    }

    /// The mapping's resident bytes in this process (`Rss` of its region in /proc/self/smaps).
    static func resident(_ m: VirtualMemory) throws -> Int {
        let address = UInt(bitPattern: m.base)
        // Read to the end: procfs files report a size of 0, which a whole-file read trusts.
        let handle = try #require(FileHandle(forReadingAtPath: "/proc/self/smaps"))
        defer { try? handle.close() }
        let smaps = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
        var inside = false
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if let range = fields.first, range.contains("-"), fields.count >= 5,
                let bounds = Optional(range.split(separator: "-")), bounds.count == 2,
                let lo = UInt(bounds[0], radix: 16), let hi = UInt(bounds[1], radix: 16)
            {
                inside = lo <= address && address < hi
            } else if inside, line.hasPrefix("Rss:"), let kb = Int(fields[fields.count - 2]) {
                return kb * 1024
            }
        }
        throw CocoaError(.fileReadUnknown)
    }

    @Test func readsKeepNoMoreThanTheBudgetMapped() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("tall.tif").path
        // 1,000 × 3,000 RGB: 3,000-byte rows, 9 MB; chunks of 21 rows (64 KB), a 512 KB budget.
        try PatternGeoTIFF.write(to: path, width: 1000, height: 3000, geoTransform: [0, 1, 0, 0, 0, -1], srs: "EPSG:3857")
        let residency = MappedScan.Residency(budget: 512 << 10)
        let scan = try #require(MappedScan(path: path, chunkBytes: 64 << 10, residency: residency))
        var peak = 0
        for y in stride(from: 0, to: 3000, by: 100) {
            let (gdal, mapped) = try Self.both(path, scan, x: 200, y: y, w: 600, h: 100)
            #expect(gdal == mapped, "rows \(y)")
            #expect(residency.residentBytes <= 512 << 10)
            peak = try max(peak, Self.resident(scan.memory))
        }
        // What the budget counts is what stays mapped: whole chunks, and the pages around the
        // last read that the kernel maps ahead (64 KB at most each side).
        #expect(peak <= (512 << 10) + (256 << 10), "peak resident \(peak) bytes")
        // Read again after the evictions: the same bytes.
        let (gdal, mapped) = try Self.both(path, scan, x: 0, y: 0, w: 1000, h: 3000)
        #expect(gdal == mapped)
    }

    @Test func aFileCutShortUnderTheMappingIsOneError() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("scan.tif").path
        try PatternGeoTIFF.write(to: path, width: 400, height: 300, geoTransform: [0, 1, 0, 0, 0, -1], srs: "EPSG:3857")
        let scan = try #require(MappedScan(path: path, chunkBytes: 64 << 10, residency: .init(budget: 1 << 20)))
        // Rewritten in place: cut to its first 10 KB, as open(O_TRUNC) and a slow write leave it.
        #expect(truncate(path, 10_000) == 0)
        var out = [UInt8](repeating: 0, count: 400 * 300 * 4)
        for _ in 0..<2 {  // and again: the fault's handler is back in place after the first
            do {
                try out.withUnsafeMutableBufferPointer { try scan.readRGBA(x: 0, y: 0, width: 400, height: 300, into: $0.baseAddress!) }
                Issue.record("a read past the end of the file succeeded")
            } catch {
                let line = String(describing: error)
                #expect(line.contains(path) && line.contains("ended before its last row") && !line.contains("\n"), "\(line)")
            }
        }
        // A read of what is still there works.
        try out.withUnsafeMutableBufferPointer { try scan.readRGBA(x: 0, y: 0, width: 400, height: 2, into: $0.baseAddress!) }
    }
}
