import CDeflate

/// A libdeflate compressor writing zlib streams (RFC 1950), as PNG's IDAT holds: one whole
/// buffer at a time. It owns its libdeflate state: use one per thread.
public final class ZlibCompressor {
    private let compressor: OpaquePointer

    /// A compressor at libdeflate level 0–12.
    public init(level: Int) {
        guard let c = libdeflate_alloc_compressor(Int32(level)) else {
            preconditionFailure("libdeflate has no compression level \(level) (0–12)")
        }
        compressor = c
    }

    deinit { libdeflate_free_compressor(compressor) }

    /// The most bytes a zlib stream of `count` bytes can take.
    public func bound(_ count: Int) -> Int { libdeflate_zlib_compress_bound(compressor, count) }

    /// Compresses `source` into `destination` (at least ``bound(_:)`` bytes): the stream's size.
    public func compress(_ source: UnsafeRawBufferPointer, into destination: UnsafeMutableRawBufferPointer) -> Int {
        libdeflate_zlib_compress(compressor, source.baseAddress, source.count, destination.baseAddress, destination.count)
    }
}
