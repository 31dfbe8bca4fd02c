import CDeflate

/// A libdeflate decompressor of zlib streams (RFC 1950), as a DEFLATE-compressed TIFF block
/// holds: one whole stream into one buffer. It owns its libdeflate state: use one per thread.
public final class ZlibDecompressor {
    private let decompressor: OpaquePointer

    public init() {
        guard let d = libdeflate_alloc_decompressor() else { preconditionFailure("libdeflate_alloc_decompressor: out of memory") }
        decompressor = d
    }

    deinit { libdeflate_free_decompressor(decompressor) }

    /// What a decompression gave.
    public enum Outcome: Equatable, Sendable {
        /// The stream decompressed whole into this many bytes.
        case decompressed(Int)
        /// The stream holds more than the destination's room.
        case tooLong
        /// The bytes are not a well-formed zlib stream, or its checksum is wrong.
        case corrupt
    }

    /// Decompress the zlib stream `source` into `destination`.
    public func decompress(_ source: UnsafeRawBufferPointer, into destination: UnsafeMutableRawBufferPointer) -> Outcome {
        var written = 0
        switch libdeflate_zlib_decompress(
            decompressor, source.baseAddress, source.count, destination.baseAddress,
            destination.count, &written)
        {
        case LIBDEFLATE_SUCCESS: return .decompressed(written)
        case LIBDEFLATE_INSUFFICIENT_SPACE: return .tooLong
        default: return .corrupt
        }
    }
}
