import CGDAL
import Foundation

extension Dataset {
    /// Prove the raster's pixels are readable before anything is written: a truncated or corrupt
    /// file fails here, in one line, rather than later as grey pixels or a half-made output.
    ///
    /// - A compressed GeoTIFF (itself, or the one file a VRT passes through): every block's bytes
    ///   must lie inside the file (what a copy cut short breaks), and the first and last block of
    ///   each band must decode. Decoding the whole raster at a small size, as below, decodes every
    ///   block of a tiled file: on the benchmark scan as a DEFLATE-tiled GeoTIFF that was one whole
    ///   decode of the file (0.77 CPU-s, about 10 % of its pyramid's CPU) before the pyramid
    ///   decoded it again.
    /// - Any other file: the whole raster decoded at 64 × 64, cheap for a JPEG (DCT scaling), an
    ///   uncompressed TIFF (64 rows) and files with overviews.
    public func verifyReadable() throws {
        if let file = storedFile(), let blocks = file.tiffBlocks() {
            try file.verify(blocks)
            return
        }
        let bw = min(width, 64), bh = min(height, 64)
        var buffer = [UInt8](repeating: 0, count: bw * bh)
        try buffer.withUnsafeMutableBufferPointer { p in
            try readBytes(
                x: 0, y: 0, width: width, height: height, bufferWidth: bw, bufferHeight: bh,
                bands: [1], into: p.baseAddress!)
        }
    }

    /// Every block's bytes within the file (its metadata, nothing decoded), and the first and last
    /// block of each band decoded.
    private func verify(_ blocks: TIFFBlocks) throws {
        // stat follows symbolic links (FileManager's attributes would give the link's own size);
        // a GDAL virtual path (/vsizip/…) has none, and only its blocks' decoding is checked.
        var st = stat()
        if stat(blocks.path, &st) == 0 {
            let fileBytes = Int(st.st_size)
            for b in blocks.blockBands {
                for by in 0..<blocks.rows {
                    for bx in 0..<blocks.columns {
                        // A block never written (sparse) has no offset and reads as empty.
                        guard let e = blocks.extent(band: b, column: bx, row: by) else { continue }
                        guard e.offset + e.size <= fileBytes else {
                            throw GDALError(
                                call: "verifyReadable", path: path,
                                message:
                                    "block (\(bx), \(by)) of band \(b) ends at byte \(e.offset + e.size), past the file's end (\(fileBytes) bytes): the file is cut short"
                            )
                        }
                    }
                }
            }
        }
        let bw = blocks.blockWidth, bh = blocks.blockHeight
        var buffer = [UInt8](repeating: 0, count: bw * bh * bandCount)
        for (bx, by) in [(0, 0), (blocks.columns - 1, blocks.rows - 1)] {
            let x = bx * bw, y = by * bh
            try buffer.withUnsafeMutableBufferPointer { p in
                try readBytes(
                    x: x, y: y, width: min(bw, width - x), height: min(bh, height - y),
                    bands: Array(1...bandCount), into: p.baseAddress!)
            }
        }
    }
}
