import CDeflate

/// CRC-32 (ISO 3309 / ITU-T V.42, as gzip and PNG use) through libdeflate.
public enum CRC32 {
    /// The checksum of `data`.
    public static func checksum(_ data: [UInt8]) -> UInt32 {
        data.withUnsafeBytes { checksum($0) }
    }

    /// The checksum of the bytes in `buffer`.
    public static func checksum(_ buffer: UnsafeRawBufferPointer) -> UInt32 {
        UInt32(libdeflate_crc32(0, buffer.baseAddress, buffer.count))
    }
}
