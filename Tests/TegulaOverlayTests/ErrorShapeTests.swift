import Foundation
import TegulaOverlay
import TegulaTileset
import TegulaTilesetOverlay
import Testing

/// TileOverlayError is the overlay library's own type (no type of a module that is not a
/// product), with the tile, the source and the underlying error as fields, and the same lines.
struct OverlayErrorShapeTests {
    @Test func theErrorIsTheLibrarysOwnType() {
        #expect(String(reflecting: TileOverlayError.self) == "TegulaOverlay.TileOverlayError")
    }

    @Test func aMissingFileTileNamesItsTileAndSource() async throws {
        let file = NSTemporaryDirectory() + "tegula-absent-\(UUID().uuidString).png"
        let path = TileOverlayPath(x: 3, y: 5, z: 4, contentScaleFactor: 2)
        do {
            _ = try await TileURLLoader().load(URL(fileURLWithPath: file), for: path)
            Issue.record("loaded \(file)")
        } catch {
            #expect(error.reason == .tileMissing && error.isMissingTile)
            #expect(error.tile == path)
            #expect(error.source == file)
            #expect(error.underlying == nil)
            #expect("\(error)" == "\(file): tile 4/3/5@2x does not exist")
        }
    }

    @Test func aTilesetThatCannotBeOpenedKeepsTheReadersError() throws {
        let file = NSTemporaryDirectory() + "tegula-bad-\(UUID().uuidString).mbtiles"
        try Data("not sqlite".utf8).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        do {
            _ = try TilesetOverlay(tileset: URL(fileURLWithPath: file))
            Issue.record("opened \(file)")
        } catch {
            #expect(error.reason == .bundleFailed)
            #expect(error.tile == nil)
            #expect(error.source == file)
            let underlying = try #require(error.underlying as? TilesetError)
            #expect(
                "\(error)" == "\(file): cannot open the tileset as an overlay: \(underlying);"
                    + " expected an .mbtiles or .pmtiles file or a z/x/y tiles folder")
        }
    }

    @Test func templateErrorsHaveNoTileOrSource() {
        let error = TileOverlayError.unclosedPlaceholder(template: "https://x/{z/{x}", offset: 10)
        #expect(error.tile == nil && error.source == nil && error.underlying == nil)
        #expect("\(error)" == "unclosed \"{\" at character 10 of URL template \"https://x/{z/{x}\"; close it with \"}\"")
    }
}
