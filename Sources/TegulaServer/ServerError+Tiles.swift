import TegulaBundle
import TegulaGeometry
import TegulaHTTP
import TegulaSupport

/// The tile server's errors (``ServerErrorReason`` is the HTTP core's), one constructor per reason,
/// so each message is written once.
extension LocatedError where Reason == ServerErrorReason {
    /// `path` is neither a tileset nor a folder holding tilesets.
    public static func noTileset(path: String, reason: String) -> ServerError {
        ServerError(.noTileset, at: path, "not a tileset (\(reason)); give \(tilesetForms), or a folder holding them")
    }

    /// Two paths give the same tileset id.
    public static func duplicateID(id: String, first: String, second: String) -> ServerError {
        ServerError(.duplicateID, "two tilesets have the id '\(id)' (\(first) and \(second)); rename one so ids "
            + "(file names without extension) are unique")
    }

    /// No tileset was found.
    public static var emptyCatalogue: ServerError {
        ServerError(.emptyCatalogue, "no tilesets found; give at least one: \(tilesetForms)")
    }

    /// A viewer asset that is not in the table.
    public static func unknownAsset(name: String) -> ServerError { ServerError(.unknownAsset, "no asset '\(name)'") }

    /// A tileset id that is not in the catalogue.
    public static func unknownTileset(id: String) -> ServerError { ServerError(.unknownTileset, "no tileset '\(id)'") }

    /// A sheet index asked for of a tileset without one.
    public static func noSheetIndex(id: String) -> ServerError {
        ServerError(.noSheetIndex, "tileset '\(id)' has no sheet index (a pipeline writes one beside a composite: OUTPUT.index.geojson)")
    }

    /// A tile asked for with another extension than the tileset's (`fileExtension`).
    public static func wrongTileFormat(id: String, fileExtension: String) -> ServerError {
        ServerError(.wrongTileFormat, "tileset '\(id)' has .\(fileExtension) tiles")
    }

    /// A tile name with or without `@2x` against the tileset's scale.
    public static func wrongTileScale(id: String, tilesetIsRetina: Bool) -> ServerError {
        ServerError(.wrongTileScale, tilesetIsRetina ? "tileset '\(id)' has @2x tiles only" : "tileset '\(id)' has no @2x tiles")
    }

    /// A zoom outside the tileset's `minZoom...maxZoom`.
    public static func zoomOutsideTileset(id: String, zoom: Int, minZoom: Int, maxZoom: Int) -> ServerError {
        ServerError(.zoomOutsideTileset, "zoom \(zoom) is outside tileset '\(id)' (\(minZoom)–\(maxZoom))")
    }

    /// An in-range tile the tileset does not hold.
    public static func missingTile(id: String, tile: Tile) -> ServerError {
        ServerError(.missingTile, "no tile \(tile) in '\(id)'")
    }

    /// Reading `tile` of tileset `id` failed with `reason`.
    public static func readFailed(id: String, tile: Tile, reason: String) -> ServerError {
        ServerError(.readFailed, "reading \(tile) of '\(id)': \(reason)")
    }

    /// Tile `tile` of the on-request source `id` lies outside its footprint or mask.
    public static func outsideFootprint(id: String, tile: Tile) -> ServerError {
        ServerError(.outsideFootprint, "tile \(tile) is outside the footprint of '\(id)'")
    }

    /// Rendering tile `tile` of the on-request source `id` failed with `reason`.
    public static func renderFailed(id: String, tile: Tile, reason: String) -> ServerError {
        ServerError(.renderFailed, "rendering tile \(tile) of '\(id)' failed: \(reason)")
    }

    /// Tile `tile` of `id` could not be made because the server its pixels come from failed.
    public static func upstreamUnavailable(id: String, tile: Tile, reason: String) -> ServerError {
        ServerError(.upstreamUnavailable, "tile \(tile) of '\(id)' cannot be made now: \(reason)")
    }

    /// The client went away before `tile` was rendered.
    public static func clientGone(tile: Tile) -> ServerError {
        ServerError(.clientGone, "the client went away before tile \(tile) was rendered")
    }

    /// The tileset forms `Tileset` reads, as the messages name them: "a tile folder with
    /// tiles.json, a *.mbtiles, a *.pmtiles".
    static var tilesetForms: String {
        (["a tile folder with \(Tileset.folderDescriptionName)"]
            + Tileset.Form.allCases.compactMap(\.fileExtension).map { "a *.\($0)" }).joined(separator: ", ")
    }
}
