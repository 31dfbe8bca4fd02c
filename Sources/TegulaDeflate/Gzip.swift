import CDeflate

/// gzip (RFC 1952) through libdeflate: one member compressed or decompressed from a whole
/// buffer, as PMTiles directories and metadata are stored.
public enum Gzip {
    /// The default level, as `gzip -9` and Go's `gzip.BestCompression` (libdeflate runs 0–12).
    public static let defaultLevel = 9

    /// One gzip member holding `data`. libdeflate writes no file name and a zero time stamp, so
    /// the same input always gives the same bytes.
    public static func compress(_ data: [UInt8], level: Int = defaultLevel) -> [UInt8] {
        guard let compressor = libdeflate_alloc_compressor(Int32(level)) else {
            preconditionFailure("libdeflate has no compression level \(level) (0–12)")
        }
        defer { libdeflate_free_compressor(compressor) }
        let bound = libdeflate_gzip_compress_bound(compressor, data.count)
        var out = [UInt8](repeating: 0, count: bound)
        let size = data.withUnsafeBytes { src in
            out.withUnsafeMutableBytes { dst in
                libdeflate_gzip_compress(compressor, src.baseAddress, data.count, dst.baseAddress, bound)
            }
        }
        precondition(size > 0, "libdeflate_gzip_compress wrote nothing within its own bound")
        out.removeLast(bound - size)
        return out
    }

    /// The bytes of the first gzip member in `data`, its CRC-32 and size checked; refused when
    /// they would be more than `limit` bytes, so a small hostile file cannot claim gigabytes.
    public static func decompress(_ data: [UInt8], limit: Int) throws(DeflateError) -> [UInt8] {
        // A member ends with CRC-32 and ISIZE (the size mod 2^32), little-endian (RFC 1952 §2.3).
        guard data.count >= 18, data[0] == 0x1F, data[1] == 0x8B else {
            throw DeflateError(.corruptGzip, "not gzip data (expected the magic bytes 1f 8b and at least 18 bytes)")
        }
        let n = data.count
        let stated = Int(data[n - 4]) | Int(data[n - 3]) << 8 | Int(data[n - 2]) << 16 | Int(data[n - 1]) << 24
        guard stated <= limit else {
            throw DeflateError(.tooLarge, "gzip data would decompress to \(stated) bytes, more than the \(limit) allowed")
        }
        guard let decompressor = libdeflate_alloc_decompressor() else {
            preconditionFailure("libdeflate_alloc_decompressor: out of memory")
        }
        defer { libdeflate_free_decompressor(decompressor) }
        var out = [UInt8](repeating: 0, count: stated)
        var written = 0
        let result = data.withUnsafeBytes { src in
            out.withUnsafeMutableBytes { dst in
                libdeflate_gzip_decompress_ex(decompressor, src.baseAddress, n, dst.baseAddress, stated, nil, &written)
            }
        }
        switch result {
        case LIBDEFLATE_SUCCESS:
            out.removeLast(stated - written)
            return out
        case LIBDEFLATE_INSUFFICIENT_SPACE:
            throw DeflateError(.corruptGzip, "gzip data holds more than the \(stated) bytes its trailer states")
        default:
            throw DeflateError(.corruptGzip, "gzip data is corrupt (bad deflate stream or CRC-32)")
        }
    }
}
