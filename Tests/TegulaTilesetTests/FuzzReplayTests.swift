import Foundation
import TegulaGeometry
import TegulaTestSupport
import Testing

@testable import TegulaTileset

/// Every input of the bundle's fuzz targets (FuzzInputs: seeds, campaign corpus, crashes), run
/// through the targets' own bodies (FuzzBodies/): parsing may refuse with a ``TilesetError`` that
/// says the input is no tileset, within the CPU cap; anything else fails.
struct FuzzReplayTests {
    /// Writes `bytes` as `name.ext` in a fresh folder and hands over its path.
    static func withFile(_ bytes: [UInt8], ext: String, _ body: (String) throws -> Void) throws {
        let dir = try TemporaryFolder.make("fuzz")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.path + "/input.\(ext)"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        try body(path)
    }

    /// Refused as a tileset that is not one: never a file-system failure or a crash.
    static func isInputRefusal(_ e: TilesetError) -> Bool {
        switch e {
        case .corrupt, .badMetadata, .badTile, .sqlite: return true
        default: return false
        }
    }

    @Test(.timeLimit(.minutes(20)), arguments: try FuzzInputs.names("pmtiles-directory"))
    func pmtilesDirectory(_ name: String) throws {
        let replay = try FuzzReplay(name, PMTilesDirectoryFuzz.run)
        #expect(replay.problems(refusing: Never.self) == [])
    }

    @Test(.timeLimit(.minutes(20)), arguments: try FuzzInputs.names("pmtiles"))
    func pmtiles(_ name: String) throws {
        let replay = try FuzzReplay(name, PMTilesFuzz.run)
        #expect(replay.problems(refusing: TilesetError.self, Self.isInputRefusal) == [])
    }

    @Test(.timeLimit(.minutes(20)), arguments: try FuzzInputs.names("mbtiles"))
    func mbtiles(_ name: String) throws {
        let replay = try FuzzReplay(name, MBTilesFuzz.run)
        #expect(replay.problems(refusing: TilesetError.self, Self.isInputRefusal) == [])
    }

    @Test(.timeLimit(.minutes(20)), arguments: try FuzzInputs.names("tilejson"))
    func tileJSON(_ name: String) throws {
        // Not JSON: Foundation's DecodingError (JSONValue.parse); JSON but not metadata: TilesetError.
        let replay = try FuzzReplay(name, TileJSONFuzz.run)
        #expect(
            replay.problems(refusing: (any Error).self) { e in
                e is DecodingError || (e as? TilesetError).map(Self.isInputRefusal) == true
            } == [])
    }

    /// A 312-byte archive whose run claims 2^32 tiles: opened, its tiles looked up, but expanding
    /// it for a resume is refused under the default budget instead of allocating 32 GB of ids.
    @Test func aRunOfFourBillionTilesIsRefusedNotExpanded() throws {
        try Self.withFile(try FuzzInputs.bytes("Crashes/pmtiles/run-of-4-billion-tiles"), ext: "pmtiles") { path in
            let reader = try PMTilesReader(path: path)
            #expect(throws: TilesetError.self) { try reader.allTileIDs() }
            #expect(throws: TilesetError.self) { try reader.allTiles() }
        }
    }

    /// A TileJSON whose centre has the zoom 4e96 trapped converting it to `Int`; now its
    /// `center` is refused, as a zoom outside 0…30 is, and a zoom in range still reads.
    @Test func aCenterZoomPastIntMaxIsRefused() throws {
        let o = try #require(try JSONValue.parse(try FuzzInputs.bytes("Crashes/tilejson/center-zoom-past-int-max")).objectValue)
        #expect {
            try TilesetMetadata(jsonObject: o, source: "fuzz")
        } throws: { error in
            guard case let .badMetadata(_, key, _)? = error as? TilesetError else { return false }
            return key == "center"
        }
        var sane = o
        sane["center"] = .array([.double(-4), .double(55), .int(3)])
        #expect(try TilesetMetadata(jsonObject: sane, source: "fuzz").center == MapCenter(longitude: -4, latitude: 55, zoom: 3))
        sane["center"] = .array([.double(-4), .double(55), .int(31)])
        #expect(throws: TilesetError.self) { try TilesetMetadata(jsonObject: sane, source: "fuzz") }
    }
}
