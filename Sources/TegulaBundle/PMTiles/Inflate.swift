/// A small DEFLATE decoder (RFC 1951, after zlib's `puff`) so PMTiles written by other tools
/// with gzip-compressed directories and metadata can be read; tegula itself writes stored blocks.
struct Inflate {
    private let input: [UInt8]
    private var pos = 0
    private var bitBuf: UInt32 = 0
    private var bitCount = 0
    private var out: [UInt8] = []

    /// Decodes a gzip member (header, deflate data, CRC-32 checked); nil when malformed.
    static func gunzip(_ g: [UInt8]) -> [UInt8]? {
        guard g.count >= 18, g[0] == 0x1F, g[1] == 0x8B, g[2] == 8 else { return nil }
        let flags = g[3]
        var p = 10
        if flags & 4 != 0 { guard p + 2 <= g.count else { return nil }; p += 2 + (Int(g[p]) | Int(g[p + 1]) << 8) }
        if flags & 8 != 0 { while p < g.count && g[p] != 0 { p += 1 }; p += 1 }
        if flags & 16 != 0 { while p < g.count && g[p] != 0 { p += 1 }; p += 1 }
        if flags & 2 != 0 { p += 2 }
        guard p < g.count else { return nil }
        var d = Inflate(input: Array(g[p...]))
        guard d.run(), d.pos + 8 <= d.input.count else { return nil }
        var crc: UInt32 = 0
        for k in 0..<4 { crc |= UInt32(d.input[d.pos + k]) << UInt32(8 * k) }
        return crc == CRC32.checksum(d.out) ? d.out : nil
    }

    private init(input: [UInt8]) { self.input = input }

    private mutating func bits(_ n: Int) -> Int? {
        while bitCount < n {
            guard pos < input.count else { return nil }
            bitBuf |= UInt32(input[pos]) << UInt32(bitCount)
            pos += 1
            bitCount += 8
        }
        let v = Int(bitBuf & ((1 << UInt32(n)) - 1))
        bitBuf >>= UInt32(n)
        bitCount -= n
        return v
    }

    /// Canonical Huffman table: counts per length and symbols in code order.
    private struct Huffman {
        var count = [Int](repeating: 0, count: 16)
        var symbol: [Int]
        init(lengths: [Int]) {
            symbol = [Int](repeating: 0, count: lengths.count)
            for l in lengths { count[l] += 1 }
            var offs = [Int](repeating: 0, count: 16)
            for l in 1..<15 { offs[l + 1] = offs[l] + count[l] }
            for (s, l) in lengths.enumerated() where l != 0 { symbol[offs[l]] = s; offs[l] += 1 }
        }
    }

    private mutating func decode(_ h: Huffman) -> Int? {
        var code = 0, first = 0, index = 0
        for len in 1...15 {
            guard let b = bits(1) else { return nil }
            code |= b
            let c = h.count[len]
            if code - c < first { return h.symbol[index + (code - first)] }
            index += c
            first = (first + c) << 1
            code <<= 1
        }
        return nil
    }

    private static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    private static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    private static let distBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    private static let distExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]

    private mutating func codes(_ lit: Huffman, _ dist: Huffman) -> Bool {
        while true {
            guard let sym = decode(lit) else { return false }
            if sym < 256 { out.append(UInt8(sym)); continue }
            if sym == 256 { return true }
            let li = sym - 257
            guard li < 29, let le = bits(Self.lengthExtra[li]), let ds = decode(dist), ds < 30,
                  let de = bits(Self.distExtra[ds]) else { return false }
            let len = Self.lengthBase[li] + le, d = Self.distBase[ds] + de
            guard d <= out.count else { return false }
            let start = out.count - d
            for k in 0..<len { out.append(out[start + k]) }
        }
    }

    private mutating func run() -> Bool {
        while true {
            guard let last = bits(1), let type = bits(2) else { return false }
            switch type {
            case 0:
                bitBuf = 0; bitCount = 0
                guard pos + 4 <= input.count else { return false }
                let n = Int(input[pos]) | Int(input[pos + 1]) << 8
                guard n == ~(Int(input[pos + 2]) | Int(input[pos + 3]) << 8) & 0xFFFF, pos + 4 + n <= input.count else { return false }
                out += input[(pos + 4)..<(pos + 4 + n)]
                pos += 4 + n
            case 1:
                var l = [Int](repeating: 8, count: 288)
                for i in 144..<256 { l[i] = 9 }
                for i in 256..<280 { l[i] = 7 }
                guard codes(Huffman(lengths: l), Huffman(lengths: [Int](repeating: 5, count: 30))) else { return false }
            case 2:
                guard dynamic() else { return false }
            default:
                return false
            }
            if last == 1 { return true }
        }
    }

    private mutating func dynamic() -> Bool {
        guard let hl = bits(5), let hd = bits(5), let hc = bits(4) else { return false }
        let nlen = hl + 257, ndist = hd + 1
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
        var cl = [Int](repeating: 0, count: 19)
        for i in 0..<(hc + 4) { guard let b = bits(3) else { return false }; cl[order[i]] = b }
        let clh = Huffman(lengths: cl)
        var lengths: [Int] = []
        while lengths.count < nlen + ndist {
            guard let sym = decode(clh) else { return false }
            switch sym {
            case 0..<16: lengths.append(sym)
            case 16:
                guard let prev = lengths.last, let r = bits(2) else { return false }
                lengths += [Int](repeating: prev, count: 3 + r)
            case 17: guard let r = bits(3) else { return false }; lengths += [Int](repeating: 0, count: 3 + r)
            default: guard let r = bits(7) else { return false }; lengths += [Int](repeating: 0, count: 11 + r)
            }
        }
        guard lengths.count == nlen + ndist else { return false }
        return codes(Huffman(lengths: Array(lengths[..<nlen])), Huffman(lengths: Array(lengths[nlen...])))
    }
}
