/// Fixed-width integers as little-endian bytes, as binary formats such as PMTiles and gzip
/// store them: appended to a byte array, or read at an offset.
public enum LittleEndian {
    /// Appends the `T.bitWidth / 8` bytes of `value`, least significant first.
    public static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// The `T` stored at `offset`, or nil when fewer than `T.bitWidth / 8` bytes follow it.
    public static func read<T: FixedWidthInteger, C: RandomAccessCollection>(
        _: T.Type, from bytes: C, at offset: C.Index
    ) -> T? where C.Element == UInt8, C.Index == Int {
        let size = T.bitWidth / 8
        guard offset >= bytes.startIndex, bytes.endIndex - offset >= size else { return nil }
        var value = T.zero
        for k in 0..<size { value |= T(truncatingIfNeeded: bytes[offset + k]) << (8 * k) }
        return value
    }
}
