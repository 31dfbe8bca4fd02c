import CGDAL
import Foundation

/// Where a compressed GeoTIFF's blocks (tiles or strips) lie in its file and how they are coded,
/// from GDAL's TIFF metadata (`BLOCK_OFFSET_x_y`, `BLOCK_SIZE_x_y`; nothing decoded): what the
/// readability check compares with the file's size, and what lets a reader decode the blocks
/// itself.
public struct TIFFBlocks: Sendable {
    /// How the blocks are compressed (GDAL's `COMPRESSION`).
    public enum Compression: Equatable, Sendable {
        case lzw
        case deflate
        /// Any other scheme, by GDAL's name for it ("JPEG", "ZSTD", …).
        case other(String)

        init(gdalName: String) {
            switch gdalName {
            case "LZW": self = .lzw
            case "DEFLATE": self = .deflate
            default: self = .other(gdalName)
            }
        }
    }

    /// A block's bytes in the file.
    public struct Extent: Equatable, Sendable {
        public let offset: Int
        public let size: Int
    }

    /// The file holding the blocks.
    public let path: String
    public let compression: Compression
    /// TIFF's Predictor: 1 none, 2 horizontal differencing, 3 floating point.
    public let predictor: Int
    public let blockWidth: Int
    public let blockHeight: Int
    /// Blocks across and down.
    public let columns: Int
    public let rows: Int
    /// The raster's size.
    public let width: Int
    public let height: Int
    /// The band count; a pixel-interleaved block holds them all, a band-interleaved one one band.
    public let bandCount: Int
    public let pixelInterleaved: Bool
    /// True when every band is 8-bit and the file's colour space is the bands' own (no YCbCr).
    public let plainBytes: Bool
    /// The blocks of each band with blocks of its own (band 1 alone when pixel-interleaved), row
    /// by row; nil for a block never written (sparse: it reads as empty).
    let extents: [[Extent?]]

    /// Block (`column`, `row`) of band `band` (1-based; any band when pixel-interleaved).
    public func extent(band: Int = 1, column: Int, row: Int) -> Extent? {
        extents[pixelInterleaved ? 0 : band - 1][row * columns + column]
    }

    /// The bands whose blocks are their own: 1 alone when pixel-interleaved.
    public var blockBands: [Int] { pixelInterleaved ? [1] : Array(1...bandCount) }

    /// Rows of the blocks of row `row` that lie inside the raster: all of them but in the last
    /// row (a strip there is that short; a tile is whole, and its first rows are those).
    public func rowsInside(row: Int) -> Int {
        min(blockHeight, height - row * blockHeight)
    }
}

extension Dataset {
    /// The blocks of this raster's file, when it is a GeoTIFF with compressed blocks (itself, or
    /// the one file a VRT passes through whole); nil otherwise.
    public func tiffBlocks() -> TIFFBlocks? {
        guard let file = storedFile(), file.driverName == "GTiff" else { return nil }
        let structure = file.metadata(domain: "IMAGE_STRUCTURE")
        guard let compression = structure["COMPRESSION"], compression != "NONE",
            let first = file.bands.first, first.blockWidth > 0, first.blockHeight > 0
        else { return nil }
        let bw = first.blockWidth, bh = first.blockHeight
        let columns = (file.width + bw - 1) / bw, rows = (file.height + bh - 1) / bh
        let pixelInterleaved = structure["INTERLEAVE"] != "BAND"
        let blockBands = pixelInterleaved ? [1] : Array(1...file.bandCount)
        let extents = blockBands.map { b -> [TIFFBlocks.Extent?] in
            guard let h = GDALGetRasterBand(file.handle, Int32(b)) else { return [] }
            var out = [TIFFBlocks.Extent?]()
            out.reserveCapacity(columns * rows)
            for by in 0..<rows {
                for bx in 0..<columns {
                    if let offset = GDALGetMetadataItem(h, "BLOCK_OFFSET_\(bx)_\(by)", "TIFF").flatMap({ Int(String(cString: $0)) }),
                        let size = GDALGetMetadataItem(h, "BLOCK_SIZE_\(bx)_\(by)", "TIFF").flatMap({ Int(String(cString: $0)) })
                    {
                        out.append(TIFFBlocks.Extent(offset: offset, size: size))
                    } else {
                        out.append(nil)
                    }
                }
            }
            return out
        }
        return TIFFBlocks(
            path: file.path, compression: TIFFBlocks.Compression(gdalName: compression),
            predictor: Int(structure["PREDICTOR"] ?? "1") ?? 1,
            blockWidth: bw, blockHeight: bh, columns: columns, rows: rows,
            width: file.width, height: file.height, bandCount: file.bandCount,
            pixelInterleaved: pixelInterleaved,
            plainBytes: file.bands.allSatisfy(\.isByte) && structure["SOURCE_COLOR_SPACE"] == nil,
            extents: extents)
    }
}
