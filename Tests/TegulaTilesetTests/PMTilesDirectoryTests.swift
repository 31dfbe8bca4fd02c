import Foundation
import TegulaGeometry
import TegulaSupport
import TegulaTestSupport
import Testing

@testable import TegulaTileset

/// PMTiles directories as go-pmtiles writes them: gzip-compressed, the root within the spec's
/// first 16,384 bytes, leaves when needed; and directories of every compression the spec
/// allows either read or refused by name.
@Suite(.timeLimit(.minutes(20)))
struct PMTilesDirectoryTests {
    /// One or two bytes per tile from a multiplicative hash of its position, so neighbours
    /// differ (no runs) and the directory does not compress to nothing.
    static func content(_ t: Tile) -> [UInt8] {
        let h = UInt32(truncatingIfNeeded: t.x) &* 2_654_435_761 ^ UInt32(truncatingIfNeeded: t.y) &* 40_503
        return h & 1 == 0 ? [UInt8(h >> 24)] : [UInt8(h >> 24), UInt8((h >> 16) & 0xFF)]
    }

    /// Every tile of zoom 10, 1,048,576 entries: the root must fit beside the header in the
    /// first fetch, every tile must come back, and Python `pmtiles` must read a sample.
    @Test func millionEntryArchive() throws {
        let dir = try TemporaryFolder.make("bundle")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.path + "/million.pmtiles"
        let side = 1 << 10
        let w = try Tileset.openWriter(at: path)
        DispatchQueue.concurrentPerform(iterations: 4) { part in
            for x in stride(from: part, to: side, by: 4) {
                for y in 0..<side {
                    let t = Tile(x: x, y: y, z: 10)
                    try! w.write(t, data: Self.content(t))
                }
            }
        }
        try w.finish(metadata: BundleFixtures.metadata(minZoom: 10, maxZoom: 10))

        let r = try #require(try Tileset.openReader(at: path) as? PMTilesReader)
        let h = r.header
        #expect(h.internalCompression == .gzip)
        #expect(h.rootOffset == 127 && h.rootOffset + h.rootLength <= 16384)
        #expect(h.leafLength > 0)
        #expect(h.addressedTiles == UInt64(side * side))
        #expect(h.tileEntries > 1_000_000)  // runs of equal neighbours are rare by construction
        let file = try #require(FileManager.default.contents(atPath: path))
        #expect(file[127] == 0x1F && file[128] == 0x8B)  // the root is gzip
        #expect(file[Int(h.leafOffset)] == 0x1F && file[Int(h.leafOffset) + 1] == 0x8B)  // so is the first leaf
        // Read back one tile in 16, on a diagonal lattice: every row and every column, and so
        // every leaf (65,536 tiles; the whole million took a large share of the suite's time).
        let wrong = Locked(0), read = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 4) { part in
            var n = 0, m = 0
            for x in stride(from: part, to: side, by: 4) {
                for y in stride(from: (16 - x * 7 % 16) % 16, to: side, by: 16) {
                    let t = Tile(x: x, y: y, z: 10)
                    m += 1
                    if (try? r.tile(t)) != Self.content(t) { n += 1 }
                }
            }
            wrong.withLock { $0 += n }
            read.withLock { $0 += m }
        }
        #expect(read.current == side * side / 16 && wrong.current == 0, "\(wrong.current) of \(read.current) tiles read back wrong")

        // A sample of 4096 tiles spread over the grid, read by Python `pmtiles`.
        var lines: [String] = []
        for k in 0..<4096 {
            let t = Tile(x: (k * 613) % side, y: (k * 277 + k / 7) % side, z: 10)
            lines.append("\(t.x) \(t.y) " + Self.content(t).map { String(format: "%02x", $0) }.joined())
        }
        let sample = dir.path + "/sample.txt"
        try lines.joined(separator: "\n").write(toFile: sample, atomically: false, encoding: .utf8)
        let script = """
            import sys
            from pmtiles.reader import Reader, MmapSource
            with open(sys.argv[1], 'rb') as f:
                r = Reader(MmapSource(f))
                good = 0
                for line in open(sys.argv[2]):
                    x, y, want = line.split()
                    good += r.get(10, int(x), int(y)) == bytes.fromhex(want)
                print(good, r.header()['internal_compression'].name)
            """
        let out = try ProgramRun.output("python3", ["-c", script, path, sample])
        #expect(out.trimmingCharacters(in: .whitespacesAndNewlines) == "4096 GZIP")
    }

    /// An archive assembled by hand with uncompressed directories and metadata (internal
    /// compression 1), tiles z0–3; returns its path.
    static func uncompressedArchive(in dir: URL) throws -> String {
        let tiles = BundleFixtures.pyramid(0...3).sorted { PMTilesID.id(of: $0) < PMTilesID.id(of: $1) }
        var data: [UInt8] = [], entries: [PMTilesEntry] = []
        for t in tiles {
            let bytes = Array("\(t.z)/\(t.x)/\(t.y)".utf8)
            entries.append(PMTilesEntry(tileId: PMTilesID.id(of: t), offset: UInt64(data.count), length: UInt32(bytes.count), runLength: 1))
            data += bytes
        }
        let root = PMTilesDirectory.serialize(entries)
        let meta = Array(#"{"name":"uncompressed","format":"png"}"#.utf8)
        var h = PMTilesHeader()
        h.internalCompression = .none
        h.rootLength = UInt64(root.count)
        h.metadataOffset = 127 + h.rootLength; h.metadataLength = UInt64(meta.count)
        h.leafOffset = h.metadataOffset + h.metadataLength
        h.tileDataOffset = h.leafOffset; h.tileDataLength = UInt64(data.count)
        h.addressedTiles = UInt64(tiles.count); h.tileEntries = UInt64(tiles.count); h.tileContents = UInt64(tiles.count)
        h.maxZoom = 3
        let path = dir.path + "/plain.pmtiles"
        try Data(h.serialized() + root + meta + data).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func readsUncompressedDirectories() throws {
        let dir = try TemporaryFolder.make("bundle")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try Tileset.openReader(at: try Self.uncompressedArchive(in: dir))
        #expect(r.metadata.name == "uncompressed")
        for t in BundleFixtures.pyramid(0...3) { #expect(try r.tile(t) == Array("\(t.z)/\(t.x)/\(t.y)".utf8)) }
    }

    @Test func refusesCompressionsItCannotReadByName() throws {
        let dir = try TemporaryFolder.make("bundle")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try Self.uncompressedArchive(in: dir)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        for (byte, name) in [(0, "unknown"), (3, "brotli"), (4, "zstd"), (9, "unknown")] as [(UInt8, String)] {
            bytes[97] = byte  // internal compression (spec §3.3)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            do {
                _ = try Tileset.openReader(at: path)
                Issue.record("internal compression \(byte) was accepted")
            } catch let e as TilesetError {
                guard case .corrupt(let p, let detail) = e else { Issue.record("\(e)"); continue }
                #expect(p == path)
                #expect(detail.contains("'\(name)'"), "\(detail)")
            }
        }
    }

    @Test func compressionBytesFollowTheSpec() {
        #expect(Compression.allCases.map(\.rawValue) == [0, 1, 2, 3, 4])
        #expect(Compression(byte: 2) == .gzip && Compression(byte: 200) == .unknown)
        var h = PMTilesHeader()
        #expect(h.serialized()[97] == 2 && h.serialized()[98] == 1)  // gzip directories, tiles as they are
        h.internalCompression = .zstd
        #expect(PMTilesHeader(h.serialized())?.internalCompression == .zstd)
    }
}
