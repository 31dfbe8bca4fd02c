import TegulaSupport

/// The 127-byte PMTiles v3 header: magic `PMTiles`, version 3, section offsets and lengths,
/// counts, clustering, compressions, tile type, zoom range, bounds and centre (E7 degrees),
/// all little-endian.
struct PMTilesHeader: Hashable, Sendable {
    static let size = 127
    var rootOffset: UInt64 = 127, rootLength: UInt64 = 0
    var metadataOffset: UInt64 = 0, metadataLength: UInt64 = 0
    var leafOffset: UInt64 = 0, leafLength: UInt64 = 0
    var tileDataOffset: UInt64 = 0, tileDataLength: UInt64 = 0
    var addressedTiles: UInt64 = 0, tileEntries: UInt64 = 0, tileContents: UInt64 = 0
    var clustered = true
    /// How directories and metadata are compressed: Tegula writes gzip, as go-pmtiles does.
    var internalCompression = Compression.gzip
    /// None: images are never recompressed.
    var tileCompression = Compression.none
    var tileType: UInt8 = 2
    var minZoom: UInt8 = 0, maxZoom: UInt8 = 0
    var minLonE7: Int32 = -1_800_000_000, minLatE7: Int32 = -850_511_287
    var maxLonE7: Int32 = 1_800_000_000, maxLatE7: Int32 = 850_511_287
    var centerZoom: UInt8 = 0
    var centerLonE7: Int32 = 0, centerLatE7: Int32 = 0

    /// The header's 127 bytes.
    func serialized() -> [UInt8] {
        var b = Array("PMTiles".utf8) + [3]
        b.reserveCapacity(Self.size)
        for v in [
            rootOffset, rootLength, metadataOffset, metadataLength, leafOffset, leafLength, tileDataOffset,
            tileDataLength, addressedTiles, tileEntries, tileContents,
        ] { LittleEndian.append(v, to: &b) }
        b += [clustered ? 1 : 0, internalCompression.rawValue, tileCompression.rawValue, tileType, minZoom, maxZoom]
        for v in [minLonE7, minLatE7, maxLonE7, maxLatE7] { LittleEndian.append(v, to: &b) }
        b.append(centerZoom)
        LittleEndian.append(centerLonE7, to: &b)
        LittleEndian.append(centerLatE7, to: &b)
        return b
    }

    /// Parses a header; nil when the magic or version is wrong or it is short.
    init?(_ b: [UInt8]) {
        guard b.count >= Self.size, Array(b[0..<7]) == Array("PMTiles".utf8), b[7] == 3 else { return nil }
        func u64(_ p: Int) -> UInt64 { LittleEndian.read(UInt64.self, from: b, at: p)! }
        func i32(_ p: Int) -> Int32 { LittleEndian.read(Int32.self, from: b, at: p)! }
        rootOffset = u64(8); rootLength = u64(16)
        metadataOffset = u64(24); metadataLength = u64(32)
        leafOffset = u64(40); leafLength = u64(48)
        tileDataOffset = u64(56); tileDataLength = u64(64)
        addressedTiles = u64(72); tileEntries = u64(80); tileContents = u64(88)
        clustered = b[96] == 1
        internalCompression = Compression(byte: b[97]); tileCompression = Compression(byte: b[98]); tileType = b[99]
        minZoom = b[100]; maxZoom = b[101]
        minLonE7 = i32(102); minLatE7 = i32(106); maxLonE7 = i32(110); maxLatE7 = i32(114)
        centerZoom = b[118]
        centerLonE7 = i32(119); centerLatE7 = i32(123)
    }

    /// An empty header to fill in.
    init() {}
}
