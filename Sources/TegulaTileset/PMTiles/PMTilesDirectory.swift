/// One PMTiles v3 directory entry: `runLength` tiles from `tileId` share the bytes at
/// `offset`/`length` of the tile data section; `runLength == 0` points at a leaf directory.
struct PMTilesEntry: Hashable, Sendable {
    var tileId: UInt64
    var offset: UInt64
    var length: UInt32
    var runLength: UInt32
}

/// PMTiles v3 directory (de)serialisation: entry count, then delta-encoded ids, run lengths,
/// lengths and offsets (0 = directly after the previous entry, else offset + 1), all varints.
enum PMTilesDirectory {
    /// Serialises entries sorted by tile id (uncompressed).
    static func serialize(_ entries: [PMTilesEntry]) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(entries.count * 6 + 8)
        Varint.append(UInt64(entries.count), to: &out)
        var last: UInt64 = 0
        for e in entries { Varint.append(e.tileId - last, to: &out); last = e.tileId }
        for e in entries { Varint.append(UInt64(e.runLength), to: &out) }
        for e in entries { Varint.append(UInt64(e.length), to: &out) }
        for (i, e) in entries.enumerated() {
            if i > 0 && e.offset == entries[i - 1].offset + UInt64(entries[i - 1].length) {
                Varint.append(0, to: &out)
            } else {
                Varint.append(e.offset + 1, to: &out)
            }
        }
        return out
    }

    /// Parses an uncompressed directory; nil when it is truncated or malformed: ids that wrap past
    /// 2^64 (so are no longer sorted, which `find` needs), a run or an entry's bytes that would
    /// end past 2^64 are malformed, as is a count larger than the bytes could hold.
    static func deserialize(_ bytes: [UInt8]) -> [PMTilesEntry]? {
        var pos = 0
        guard let n64 = Varint.read(bytes, &pos), n64 < UInt64(bytes.count) + 1 else { return nil }
        let n = Int(n64)
        var entries = [PMTilesEntry](repeating: PMTilesEntry(tileId: 0, offset: 0, length: 0, runLength: 0), count: n)
        var last: UInt64 = 0
        for i in 0..<n {
            guard let d = Varint.read(bytes, &pos) else { return nil }
            let (id, wrapped) = last.addingReportingOverflow(d)
            guard !wrapped else { return nil }
            last = id
            entries[i].tileId = last
        }
        for i in 0..<n {
            guard let v = Varint.read(bytes, &pos), v <= UInt64(UInt32.max),
                !entries[i].tileId.addingReportingOverflow(v).overflow
            else { return nil }
            entries[i].runLength = UInt32(v)
        }
        for i in 0..<n {
            guard let v = Varint.read(bytes, &pos), v <= UInt64(UInt32.max) else { return nil }
            entries[i].length = UInt32(v)
        }
        for i in 0..<n {
            guard let v = Varint.read(bytes, &pos) else { return nil }
            if i > 0 && v == 0 {
                entries[i].offset = entries[i - 1].offset + UInt64(entries[i - 1].length)
            } else {
                guard v > 0 else { return nil }
                entries[i].offset = v - 1
            }
            guard !entries[i].offset.addingReportingOverflow(UInt64(entries[i].length)).overflow else { return nil }
        }
        return entries
    }

    /// The entry holding `id` (a tile entry whose run covers it, or the leaf before it), as the
    /// spec's `FindTile`.
    static func find(_ entries: [PMTilesEntry], _ id: UInt64) -> PMTilesEntry? {
        var lo = 0, hi = entries.count - 1
        while lo <= hi {
            let mid = (lo + hi) >> 1
            if entries[mid].tileId < id { lo = mid + 1 } else if entries[mid].tileId > id { hi = mid - 1 } else { return entries[mid] }
        }
        guard hi >= 0 else { return nil }
        let e = entries[hi]
        if e.runLength == 0 || id - e.tileId < UInt64(e.runLength) { return e }
        return nil
    }
}

/// Unsigned LEB128 varints (protobuf style), as PMTiles directories use.
enum Varint {
    static func append(_ v: UInt64, to out: inout [UInt8]) {
        var v = v
        while v >= 0x80 {
            out.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }

    static func read(_ b: [UInt8], _ pos: inout Int) -> UInt64? {
        var result: UInt64 = 0, shift: UInt64 = 0
        while pos < b.count && shift < 64 {
            let byte = b[pos]
            pos += 1
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
        }
        return nil
    }
}

/// The spec's tile lookup from the root down, one directory at a time, so that readers over
/// sources that answer at once or later walk by the same rule: find the entry holding the id; a
/// tile entry ends the walk, a leaf entry is entered once its reader has it; at most four
/// directories (root and three leaf levels) are searched.
struct PMTilesWalk {
    /// What the next directory holds for the id.
    enum Step {
        /// The tile's entry: its bytes are at the entry's offset in the tile data.
        case tile(PMTilesEntry)
        /// A leaf directory to read and ``enter(_:)``.
        case leaf(PMTilesEntry)
    }

    let id: UInt64
    private var directory: [PMTilesEntry]
    private var searched = 0

    /// A walk for tile id `id` from the root directory.
    init(_ id: UInt64, root: [PMTilesEntry]) {
        self.id = id
        directory = root
    }

    /// The entry for the id in the current directory; nil when the archive has no such tile.
    mutating func next() -> Step? {
        guard searched < 4, let e = PMTilesDirectory.find(directory, id) else { return nil }
        searched += 1
        return e.runLength > 0 ? .tile(e) : .leaf(e)
    }

    /// Continues in the leaf ``next()`` pointed at.
    mutating func enter(_ leaf: [PMTilesEntry]) { directory = leaf }
}
