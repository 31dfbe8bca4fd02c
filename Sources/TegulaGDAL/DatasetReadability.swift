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
        if let tiff = compressedTIFF() {
            try tiff.verifyBlocks()
            return
        }
        let bw = min(width, 64), bh = min(height, 64)
        var buffer = [UInt8](repeating: 0, count: bw * bh)
        try buffer.withUnsafeMutableBufferPointer { p in
            try readBytes(x: 0, y: 0, width: width, height: height, bufferWidth: bw, bufferHeight: bh,
                          bands: [1], into: p.baseAddress!)
        }
    }

    /// This raster's file, opened, when it is a GeoTIFF with compressed blocks (read directly or
    /// through a VRT that passes it through whole); nil otherwise.
    private func compressedTIFF() -> Dataset? {
        guard let file = storedFile(), file.driverName == "GTiff", let compression = file.metadata(domain: "IMAGE_STRUCTURE")["COMPRESSION"],
              compression != "NONE" else { return nil }
        return file
    }

    /// Every block's offset and size (TIFF metadata, nothing decoded) within the file, and the
    /// first and last block of each band decoded.
    private func verifyBlocks() throws {
        guard let band = bands.first, band.blockWidth > 0, band.blockHeight > 0 else { return }
        let bw = band.blockWidth, bh = band.blockHeight
        let columns = (width + bw - 1) / bw, rows = (height + bh - 1) / bh
        // stat follows symbolic links (FileManager's attributes would give the link's own size);
        // a GDAL virtual path (/vsizip/…) has none, and only its blocks' decoding is checked.
        var st = stat()
        let fileBytes = stat(path, &st) == 0 ? Int(st.st_size) : nil
        // Pixel-interleaved blocks hold every band; band-interleaved ones are each band's own.
        let separate = metadata(domain: "IMAGE_STRUCTURE")["INTERLEAVE"] == "BAND"
        if let fileBytes {
            for b in separate ? Array(1...bandCount) : [1] {
                guard let h = GDALGetRasterBand(handle, Int32(b)) else { continue }
                for by in 0..<rows {
                    for bx in 0..<columns {
                        // A block never written (sparse) has no offset and reads as empty.
                        guard let offset = GDALGetMetadataItem(h, "BLOCK_OFFSET_\(bx)_\(by)", "TIFF").flatMap({ Int(String(cString: $0)) }),
                              let size = GDALGetMetadataItem(h, "BLOCK_SIZE_\(bx)_\(by)", "TIFF").flatMap({ Int(String(cString: $0)) })
                        else { continue }
                        guard offset + size <= fileBytes else {
                            throw GDALError(call: "verifyReadable", path: path,
                                            message: "block (\(bx), \(by)) of band \(b) ends at byte \(offset + size), past the file's end (\(fileBytes) bytes): the file is cut short")
                        }
                    }
                }
            }
        }
        var buffer = [UInt8](repeating: 0, count: bw * bh * bandCount)
        for (bx, by) in [(0, 0), (columns - 1, rows - 1)] {
            let x = bx * bw, y = by * bh
            try buffer.withUnsafeMutableBufferPointer { p in
                try readBytes(x: x, y: y, width: min(bw, width - x), height: min(bh, height - y),
                              bands: Array(1...bandCount), into: p.baseAddress!)
            }
        }
    }
}
