import CDeflate

/// CRC-32 (ISO 3309 / ITU-T V.42, as gzip and PNG use) through libdeflate.
public enum CRC32 {
    /// The checksum of `data`.
    public static func checksum(_ data: [UInt8]) -> UInt32 {
        data.withUnsafeBytes { UInt32(libdeflate_crc32(0, $0.baseAddress, $0.count)) }
    }
}
