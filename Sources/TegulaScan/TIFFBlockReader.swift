import CKernels
import Foundation
import TegulaDeflate
import TegulaGDAL

/// A GeoTIFF's LZW or DEFLATE blocks read from its file and decoded here, for ``DecodedScan``:
/// LZW by CKernels' `tiff_lzw.c`, DEFLATE by libdeflate directly, in less time than libtiff's
/// LZW decoder took for the same bytes (BENCHMARKS.md, "Figures behind the code"); for both, GDAL's block cache and its copy into
/// the caller's buffer (`GDALCopyWords`) are left out.
final class TIFFBlockReader: @unchecked Sendable {
    let blocks: TIFFBlocks
    /// Bytes a pixel: the file's bands, all in each block.
    let bands: Int
    private let file: Int32

    /// The blocks of `blocks`' file when they are LZW or DEFLATE, hold 8-bit pixel-interleaved
    /// `bands`-band pixels with no predictor or horizontal differencing, and the first decodes here
    /// to the bytes GDAL reads for it through `raster` (which catches what TIFF allows and this
    /// reader does not, such as the reversed bit order); nil otherwise.
    init?(blocks: TIFFBlocks, bands: Int, checkedWith raster: SourceRaster) {
        guard [.lzw, .deflate].contains(blocks.compression), blocks.pixelInterleaved, blocks.plainBytes,
            blocks.bandCount == bands, [1, 2].contains(blocks.predictor)
        else { return nil }
        self.blocks = blocks
        self.bands = bands
        file = open(blocks.path, O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { return nil }
        let w = min(blocks.blockWidth, blocks.width), h = blocks.rowsInside(row: 0)
        let mine = UnsafeMutablePointer<UInt8>.allocate(capacity: w * h * bands + Int(TEGULA_LZW_SLACK))
        let gdal = UnsafeMutablePointer<UInt8>.allocate(capacity: w * h * bands)
        defer { mine.deallocate(); gdal.deallocate() }
        guard decode(column: 0, row: 0, into: mine, width: w, height: h),
            (try? raster.dataset.readBytes(x: 0, y: 0, width: w, height: h, bands: Array(1...bands), into: gdal)) != nil,
            memcmp(mine, gdal, w * h * bands) == 0
        else { return nil }
    }

    deinit { close(file) }

    /// Decode block (`column`, `row`) into `out`: its first `height` rows, the first `width`
    /// pixels of each (the part inside the raster), `width` × `bands` bytes a row, with
    /// `TEGULA_LZW_SLACK` bytes of room after them. False when the block is not in the file or
    /// its data do not decode (the caller then reads it through GDAL, which decides).
    func decode(column: Int, row: Int, into out: UnsafeMutablePointer<UInt8>, width: Int, height: Int) -> Bool {
        guard let extent = blocks.extent(column: column, row: row), extent.size > 0 else { return false }
        let data = UnsafeMutablePointer<UInt8>.allocate(capacity: extent.size)
        defer { data.deallocate() }
        var read = 0
        while read < extent.size {
            let n = pread(file, data + read, extent.size - read, off_t(extent.offset + read))
            if n <= 0 { return false }
            read += n
        }
        let source = UnsafeRawBufferPointer(start: data, count: extent.size)
        let rowBytes = blocks.blockWidth * bands
        // A block as wide as asked decodes in place; one cut by the raster's right edge (or a
        // DEFLATE tile cut by its bottom edge, which decompresses whole) through a buffer.
        if width == blocks.blockWidth, decode(source, into: out, rows: height, rowBytes: rowBytes) {
            return true
        }
        let rows = blocks.compression == .lzw ? height : blocks.blockHeight
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: rowBytes * rows + Int(TEGULA_LZW_SLACK))
        defer { buffer.deallocate() }
        guard decode(source, into: buffer, rows: rows, rowBytes: rowBytes) else { return false }
        for y in 0..<height { (out + y * width * bands).update(from: buffer + y * rowBytes, count: width * bands) }
        return true
    }

    /// The block's first `rows` rows decoded into `out` (room for `TEGULA_LZW_SLACK` bytes more),
    /// its differencing undone; false when the data do not give them (a DEFLATE block holding
    /// more rows among them).
    private func decode(_ source: UnsafeRawBufferPointer, into out: UnsafeMutablePointer<UInt8>, rows: Int, rowBytes: Int) -> Bool {
        let count = rows * rowBytes
        switch blocks.compression {
        case .lzw:
            // LZW decodes a block from its start: its first rows are these, whatever follows.
            guard tegula_tiff_lzw_decode(source.baseAddress!.assumingMemoryBound(to: UInt8.self), source.count, out, count) == count
            else { return false }
        default:
            guard
                ZlibDecompressor().decompress(source, into: UnsafeMutableRawBufferPointer(start: out, count: count))
                    == .decompressed(count)
            else { return false }
        }
        if blocks.predictor == 2 { tegula_tiff_undo_predictor8(out, rows, rowBytes, bands) }
        return true
    }
}
