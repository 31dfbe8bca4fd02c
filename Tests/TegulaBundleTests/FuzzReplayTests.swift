import Foundation
import Testing
@testable import TegulaBundle
import TegulaGeometry
import TegulaTestSupport

/// Every seed and every input that ever crashed the bundle's fuzz targets (scripts/fuzz,
/// Fuzz/Targets/), replayed as the targets run them: parsing may refuse, never crash.
struct FuzzReplayTests {
    /// Writes `bytes` as `name.ext` in a fresh folder and hands over its path.
    static func withFile(_ bytes: [UInt8], ext: String, _ body: (String) throws -> Void) throws {
        let dir = try TemporaryFolder.make("fuzz")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.path + "/input.\(ext)"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        try body(path)
    }

    @Test(arguments: try FuzzInputs.names("pmtiles-directory"))
    func pmtilesDirectory(_ name: String) throws {
        guard let entries = PMTilesDirectory.deserialize(try FuzzInputs.bytes(name)) else { return }
        #expect(zip(entries, entries.dropFirst()).allSatisfy { $0.tileId <= $1.tileId }, "ids must come back sorted")
        for e in entries.prefix(64) { _ = PMTilesDirectory.find(entries, e.tileId &+ 1) }
        #expect(PMTilesDirectory.deserialize(PMTilesDirectory.serialize(entries)) == entries)
    }

    @Test(arguments: try FuzzInputs.names("pmtiles"))
    func pmtiles(_ name: String) throws {
        try Self.withFile(try FuzzInputs.bytes(name), ext: "pmtiles") { path in
            guard let reader = try? PMTilesReader(path: path) else { return }
            for z in 0...4 {
                for x in 0..<(1 << z) { for y in 0..<(1 << z) { _ = try? reader.tile(Tile(x: x, y: y, z: z)) } }
            }
            _ = try? reader.allTileIDs(limit: 1 << 16)
            _ = try? reader.allTiles(limit: 1 << 16)
        }
    }

    @Test(arguments: try FuzzInputs.names("mbtiles"))
    func mbtiles(_ name: String) throws {
        try Self.withFile(try FuzzInputs.bytes(name), ext: "mbtiles") { path in
            guard let reader = try? MBTilesReader(path: path) else { return }
            for z in 0...3 {
                for x in 0..<(1 << z) { for y in 0..<(1 << z) { _ = try? reader.tile(Tile(x: x, y: y, z: z)) } }
            }
            _ = try? MBTilesReader.storedTiles(path)
        }
    }

    @Test(arguments: try FuzzInputs.names("tilejson"))
    func tileJSON(_ name: String) throws {
        guard let value = try? JSONValue.parse(try FuzzInputs.bytes(name)) else { return }
        _ = value.serialized()
        guard let o = value.objectValue, let m = try? TilesetMetadata(jsonObject: o, source: "fuzz") else { return }
        #expect(!m.tileJSON(tiles: ["http://localhost/{z}/{x}/{y}.png"]).isEmpty)
    }

    /// A 312-byte archive whose run claims 2^32 tiles: opened, its tiles looked up, but expanding
    /// it for a resume is refused under the default budget instead of allocating 32 GB of ids.
    @Test func aRunOfFourBillionTilesIsRefusedNotExpanded() throws {
        try Self.withFile(try FuzzInputs.bytes("Crashes/pmtiles/run-of-4-billion-tiles"), ext: "pmtiles") { path in
            let reader = try PMTilesReader(path: path)
            #expect(throws: BundleError.self) { try reader.allTileIDs() }
            #expect(throws: BundleError.self) { try reader.allTiles() }
        }
    }

    /// A TileJSON whose centre has the zoom 4e96 trapped converting it to `Int`; now its
    /// `center` is refused, as a zoom outside 0…30 is, and a zoom in range still reads.
    @Test func aCenterZoomPastIntMaxIsRefused() throws {
        let o = try #require(try JSONValue.parse(try FuzzInputs.bytes("Crashes/tilejson/center-zoom-past-int-max")).objectValue)
        #expect {
            try TilesetMetadata(jsonObject: o, source: "fuzz")
        } throws: { error in
            guard case let .badMetadata(_, key, _)? = error as? BundleError else { return false }
            return key == "center"
        }
        var sane = o
        sane["center"] = .array([.double(-4), .double(55), .int(3)])
        #expect(try TilesetMetadata(jsonObject: sane, source: "fuzz").center == MapCenter(longitude: -4, latitude: 55, zoom: 3))
        sane["center"] = .array([.double(-4), .double(55), .int(31)])
        #expect(throws: BundleError.self) { try TilesetMetadata(jsonObject: sane, source: "fuzz") }
    }
}
