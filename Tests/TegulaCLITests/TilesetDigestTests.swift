import Foundation
import TegulaTestSupport
import Testing

/// `TilesetDigest`, which every tile equality of the suite is built on, cannot call two tilesets
/// equal for having nothing in them: it throws on a tileset that lists no tile and on a listed
/// tile it cannot read, and tells two tilesets apart by one tile's bytes.
@Suite(.timeLimit(.minutes(20)))
struct TilesetDigestTests {
    /// A folder tileset of the synthetic scan at zooms 2–5, in a new folder.
    static func tiled() throws -> (folder: String, tiles: String) {
        let folder = try TemporaryFolder.make("digest").path
        try SyntheticGeoTIFF.write(to: folder + "/scan.tif")
        let run = try TegulaBinary.run(["tile", folder + "/scan.tif", "-o", folder + "/tiles", "--zoom", "2-5", "--quiet"])
        try #require(run.status == 0, "\(run.stderr)")
        return (folder, folder + "/tiles")
    }

    /// The tile files of a folder tileset, relative to it.
    static func tileFiles(_ tiles: String) throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: tiles).filter { $0.hasSuffix(".png") }.sorted()
    }

    @Test func oneTilesBytesChangeTheDigest() throws {
        let (folder, tiles) = try Self.tiled()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let before = try TilesetDigest.of(tiles)
        let files = try Self.tileFiles(tiles)
        #expect(before.tiles == files.count && before.tiles > 4)
        let first = tiles + "/" + files[0]
        var bytes = try Data(contentsOf: URL(fileURLWithPath: first))
        bytes[bytes.count - 1] ^= 1
        try bytes.write(to: URL(fileURLWithPath: first))
        let after = try TilesetDigest.of(tiles)
        #expect(after.tiles == before.tiles && after.digest != before.digest)
    }

    @Test func aListedTileThatCannotBeReadThrowsNamingIt() throws {
        let (folder, tiles) = try Self.tiled()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = try Self.tileFiles(tiles)[0]
        // A link out of the tileset: listed by its name, refused by the reader.
        try FileManager.default.removeItem(atPath: tiles + "/" + file)
        try FileManager.default.createSymbolicLink(atPath: tiles + "/" + file, withDestinationPath: folder + "/scan.tif")
        #expect {
            _ = try TilesetDigest.of(tiles)
        } throws: { error in
            "\(error)".contains(String(file.dropLast(4))) && "\(error)".contains("cannot be read")
        }
    }

    @Test func aTilesetWithNoTileThrows() throws {
        let (folder, tiles) = try Self.tiled()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for file in try Self.tileFiles(tiles) { try FileManager.default.removeItem(atPath: tiles + "/" + file) }
        #expect(throws: TilesetDigest.NoTiles.self) { _ = try TilesetDigest.of(tiles) }
    }
}
