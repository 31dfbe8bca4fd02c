import Foundation
import TegulaGeometry
import TegulaTestSupport
import Testing

@testable import TegulaTileset

/// Bundles read back by tools that are not ours: the sqlite3 CLI and Python `pmtiles`.
@Suite(.timeLimit(.minutes(20)))
struct IndependentReaderTests {
    @Test func mbtilesReadBySQLiteCLI() throws {
        let path = try TemporaryFolder.make("bundle").path + "/a.mbtiles"
        let w = try Tileset.openWriter(at: path)
        let t = Tile(x: 486, y: 332, z: 10)
        let bytes = BundleFixtures.png(for: t)
        try w.write(t, data: bytes)
        try w.finish(metadata: BundleFixtures.metadata(minZoom: 10, maxZoom: 10))
        let row = try ProgramRun.output("sqlite3", [path, "SELECT zoom_level, tile_column, tile_row, hex(tile_data) FROM tiles"])
        let hex = bytes.map { String(format: "%02X", $0) }.joined()
        #expect(row.trimmingCharacters(in: .newlines) == "10|486|691|\(hex)")  // TMS row
        let meta = try ProgramRun.output("sqlite3", [path, "SELECT name || '=' || value FROM metadata ORDER BY name"])
        for line in [
            "name=Schagen 1689", "format=png", "bounds=-30.0,20.0,30.0,60.5", "minzoom=10", "maxzoom=10",
            "type=overlay", "attribution=G. van Schagen",
        ] {
            #expect(meta.contains(line + "\n"), "\(line) in \(meta)")
        }
        #expect(meta.contains("center=0.0,40.25,10"))
        let idx = try ProgramRun.output("sqlite3", [path, "SELECT sql FROM sqlite_master WHERE name='tile_index'"])
        #expect(idx.contains("UNIQUE INDEX"))
    }

    /// Distinct content per tile for z0–8 (87,381 tiles, more than the 16,384 entries a root may
    /// hold alone, as go-pmtiles decides) forces leaf directories; python `pmtiles` must read
    /// every tile and the metadata. (z0–7 fitted a root once directories were really gzipped.)
    @Test func pmtilesReadByPythonPMTiles() throws {
        let path = try TemporaryFolder.make("bundle").path + "/big.pmtiles"
        let w = try Tileset.openWriter(at: path)
        let tiles = BundleFixtures.pyramid(0...8)
        @Sendable func content(_ t: Tile) -> [UInt8] { t.z == 7 && t.x < 64 ? [9, 9, 9] : Array("\(t.z)/\(t.x)/\(t.y)".utf8) }
        DispatchQueue.concurrentPerform(iterations: tiles.count) { i in try! w.write(tiles[i], data: content(tiles[i])) }
        try w.finish(metadata: BundleFixtures.metadata(maxZoom: 8))
        let r = try #require(try Tileset.openReader(at: path) as? PMTilesReader)
        #expect(r.header.leafLength > 0)
        #expect(r.header.rootOffset + r.header.rootLength <= 16384)
        #expect(r.header.addressedTiles == UInt64(tiles.count))
        #expect(r.header.tileContents == UInt64(tiles.count - 64 * 128 + 1))  // identical tiles stored once
        #expect(r.header.tileEntries < r.header.addressedTiles)  // runs of identical tiles share entries
        #expect(r.header.clustered)
        for t in tiles { #expect(try r.tile(t) == content(t)) }
        let script = """
            import sys, json
            from pmtiles.reader import Reader, MmapSource, all_tiles
            with open(sys.argv[1], 'rb') as f:
                src = MmapSource(f)
                r = Reader(src)
                h = r.header()
                n = 0; bad = 0
                for (z, x, y), data in all_tiles(src):
                    n += 1
                    want = b'\\x09\\x09\\x09' if z == 7 and x < 64 else f'{z}/{x}/{y}'.encode()
                    bad += data != want
                m = r.metadata()
                print(n, bad, h['tile_type'].value, h['max_zoom'], m['name'], m['footprint']['type'], r.get(3, 5, 2).decode())
            """
        let out = try ProgramRun.output("python3", ["-c", script, path])
        #expect(out.trimmingCharacters(in: .newlines) == "87381 0 2 8 Schagen 1689 Polygon 3/5/2")
    }
}

/// Files written by another PMTiles writer (Python `pmtiles`, gzip-deflated directories and
/// metadata) are read by our reader.
@Suite(.timeLimit(.minutes(20)))
struct ForeignPMTilesTests {
    @Test func readsPythonWrittenPMTiles() throws {
        let path = try TemporaryFolder.make("bundle").path + "/py.pmtiles"
        let script = """
            import sys
            from pmtiles.writer import Writer
            from pmtiles.tile import zxy_to_tileid, TileType, Compression
            with open(sys.argv[1], 'wb') as f:
                w = Writer(f)
                ids = sorted((zxy_to_tileid(z, x, y), f'{z}/{x}/{y}') for z in range(0, 8) for x in range(2**z) for y in range(2**z))
                for i, s in ids:
                    w.write_tile(i, s.encode() * 3)
                w.finalize({"tile_type": TileType.PNG, "tile_compression": Compression.NONE, "min_lon_e7": -1800000000,
                            "min_lat_e7": -850000000, "max_lon_e7": 1800000000, "max_lat_e7": 850000000,
                            "center_zoom": 1, "center_lon_e7": 0, "center_lat_e7": 0}, {"name": "from python", "attribution": "py"})
            """
        try ProgramRun.output("python3", ["-c", script, path])
        let r = try Tileset.openReader(at: path)
        #expect(r.metadata.name == "from python" && r.metadata.format == .png && r.metadata.zooms.max == 7)
        for t in [Tile(x: 0, y: 0, z: 0), Tile(x: 5, y: 2, z: 3), Tile(x: 127, y: 64, z: 7), Tile(x: 99, y: 3, z: 7)] {
            #expect(try r.tile(t) == Array("\(t.z)/\(t.x)/\(t.y)".utf8) + Array("\(t.z)/\(t.x)/\(t.y)".utf8) + Array("\(t.z)/\(t.x)/\(t.y)".utf8))
        }
        // Every one of the 21,845 tiles, through the Python writer's gzip directories.
        let pr = try #require(r as? PMTilesReader)
        #expect(pr.header.internalCompression == .gzip)
        var wrong = 0
        for t in BundleFixtures.pyramid(0...7) where try r.tile(t) != Array(String(repeating: "\(t.z)/\(t.x)/\(t.y)", count: 3).utf8) {
            wrong += 1
        }
        #expect(wrong == 0)
        #expect(try r.tile(Tile(x: 0, y: 0, z: 8)) == nil)
    }
}
