/// gzip (RFC 1952) using deflate *stored* blocks only: readable by every gzip reader, written
/// without a compression library (Foundation has no gzip on Linux). PMTiles directories and
/// metadata are small, so storing them uncompressed costs a few bytes of framing.
enum StoredGzip {
    /// Wraps bytes in a gzip member of stored deflate blocks (≤ 65535 bytes each).
    static func wrap(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]
        out.reserveCapacity(data.count + 32 + data.count / 65535 * 5)
        var i = 0
        repeat {
            let n = min(65535, data.count - i)
            let final: UInt8 = i + n >= data.count ? 1 : 0
            out.append(final)
            out += [UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            out += data[i..<(i + n)]
            i += n
        } while i < data.count
        let crc = CRC32.checksum(data)
        for s in stride(from: 0, to: 32, by: 8) { out.append(UInt8((crc >> UInt32(s)) & 0xFF)) }
        let size = UInt32(truncatingIfNeeded: data.count)
        for s in stride(from: 0, to: 32, by: 8) { out.append(UInt8((size >> UInt32(s)) & 0xFF)) }
        return out
    }

    /// Unwraps a gzip member made of stored blocks; nil for other deflate block types (which
    /// need a real inflater) or a bad checksum.
    static func unwrap(_ g: [UInt8]) -> [UInt8]? {
        guard g.count >= 18, g[0] == 0x1F, g[1] == 0x8B, g[2] == 8 else { return nil }
        let flags = g[3]
        var pos = 10
        if flags & 4 != 0 { guard pos + 2 <= g.count else { return nil }; pos += 2 + Int(g[pos]) | Int(g[pos + 1]) << 8 }
        if flags & 8 != 0 { while pos < g.count && g[pos] != 0 { pos += 1 }; pos += 1 }
        if flags & 16 != 0 { while pos < g.count && g[pos] != 0 { pos += 1 }; pos += 1 }
        if flags & 2 != 0 { pos += 2 }
        var out = [UInt8]()
        while true {
            guard pos + 5 <= g.count else { return nil }
            let header = g[pos]
            guard header & 0b110 == 0 else { return nil }  // not a stored block
            let n = Int(g[pos + 1]) | Int(g[pos + 2]) << 8
            let nn = Int(g[pos + 3]) | Int(g[pos + 4]) << 8
            guard n == (~nn & 0xFFFF), pos + 5 + n <= g.count else { return nil }
            out += g[(pos + 5)..<(pos + 5 + n)]
            pos += 5 + n
            if header & 1 == 1 { break }
        }
        guard pos + 8 <= g.count else { return nil }
        var crc: UInt32 = 0
        for k in 0..<4 { crc |= UInt32(g[pos + k]) << UInt32(8 * k) }
        return crc == CRC32.checksum(out) ? out : nil
    }
}

/// CRC-32 (IEEE 802.3, as gzip uses).
enum CRC32 {
    static let table: [UInt32] = (0..<256).map { i -> UInt32 in
        var c = UInt32(i)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB88320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func checksum(_ data: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in data { c = table[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }
}
