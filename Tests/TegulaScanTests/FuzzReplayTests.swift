import Foundation
import TegulaGDAL
import TegulaTestSupport
import Testing

@testable import TegulaScan

/// The inputs of the C fuzz targets tiff-lzw and tiff-deflate (FuzzInputs: mutated LZW and DEFLATE
/// GeoTIFFs, seeds from scripts/fuzz-seeds, crashes), read through the Swift path those targets
/// mirror in C: ``DecodedScan`` and its `TIFFBlockReader`, which decodes a block itself
/// (`tiff_lzw.c`, libdeflate) and leaves GDAL the ones it cannot. Every block reads as GDAL reads
/// it, or fails in both. (The targets themselves, under ASan and UBSan, are replayed by
/// `scripts/test-sanitizers c-kernels`.)
struct FuzzReplayTests {
    /// Whether `read` succeeds, on its first or second try. Tegula's GDAL reads fail on a GDAL
    /// warning (`Dataset.readBytes`), and libtiff 4.5 reports some damage lazily, once, on a
    /// handle's first block read (a TileOffsets tag of the wrong count); the block is then cached
    /// and reads again without one. What is compared here is whether the block decodes, and to
    /// which bytes.
    static func reads(_ read: () throws -> Void) -> Bool { (try? read()) != nil || (try? read()) != nil }

    /// The blocks of the scan at `path`, at most `limit`, each read through `scan` and by GDAL:
    /// the windows whose bytes differ, or that one of them read and the other refused.
    static func disagreements(_ path: String, _ scan: DecodedScan, limit: Int = 256) throws -> [String] {
        let gdal = try SourceRaster(path: path), mine = try SourceRaster(path: path)
        var out: [String] = []
        let columns = (scan.width + scan.unitWidth - 1) / scan.unitWidth, rows = (scan.height + scan.unitHeight - 1) / scan.unitHeight
        for uy in 0..<rows {
            for ux in 0..<columns where uy * columns + ux < limit {
                let x = ux * scan.unitWidth, y = uy * scan.unitHeight
                let w = min(scan.unitWidth, scan.width - x), h = min(scan.unitHeight, scan.height - y)
                var a = [UInt8](repeating: 1, count: w * h * 4), b = [UInt8](repeating: 2, count: w * h * 4)
                let byGDAL = reads {
                    try a.withUnsafeMutableBufferPointer {
                        try gdal.readRGBA(x: x, y: y, width: w, height: h, bufferWidth: w, bufferHeight: h, into: $0.baseAddress!)
                    }
                }
                let byScan = reads {
                    try b.withUnsafeMutableBufferPointer {
                        try scan.readRGBA(x: x, y: y, width: w, height: h, into: $0.baseAddress!, using: mine)
                    }
                }
                if byGDAL != byScan {
                    out.append("block \(ux),\(uy): GDAL \(byGDAL ? "read" : "refused") it, the scan \(byScan ? "read" : "refused") it")
                } else if byGDAL, a != b {
                    out.append("block \(ux),\(uy): \(zip(a, b).filter { $0 != $1 }.count) bytes differ")
                }
            }
        }
        return out
    }

    /// The input as `scan.tif` in a fresh folder.
    static func withScan(_ name: String, _ body: (String) throws -> Void) throws {
        let dir = try TemporaryFolder.make("fuzz-tiff")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("scan.tif").path
        try Data(try FuzzInputs.bytes(name)).write(to: URL(fileURLWithPath: path))
        try body(path)
    }

    @Test(.timeLimit(.minutes(20)), arguments: try FuzzInputs.names("tiff-lzw") + FuzzInputs.names("tiff-deflate"))
    func tiffBlocksReadAsGDALReadsThem(_ name: String) throws {
        try Self.withScan(name) { path in
            // A mutated file GDAL cannot open as an RGB(A) scan is read by neither.
            guard let scan = DecodedScan(path: path, budgetBytes: 1 << 22) else { return }
            let disagreements = try Self.disagreements(path, scan)
            #expect(disagreements == [])
        }
    }

    /// The replay is not empty: the RGB and RGBA seeds of both targets are decoded by
    /// TIFFBlockReader, not GDAL (the grey one is no scan DecodedScan reads).
    @Test(arguments: ["tiff-lzw", "tiff-deflate"])
    func theColourSeedsAreDecodedByTegula(_ target: String) throws {
        for seed in ["rgb-tiles-16", "rgb-tiles-predictor", "rgba-strips-8", "rgba-strips-predictor", "rgb-noise", "rgb-flat-tiles"] {
            try Self.withScan("Corpus/\(target)/\(seed)") { path in
                let scan = try #require(DecodedScan(path: path, budgetBytes: 1 << 22), "\(target)/\(seed)")
                #expect(scan.decodesTIFFBlocks, "\(target)/\(seed)")
                let disagreements = try Self.disagreements(path, scan)
                #expect(disagreements == [], "\(target)/\(seed)")
            }
        }
    }
}
