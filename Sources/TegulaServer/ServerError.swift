import TegulaBundle
import TegulaGeometry

/// Everything the server layer refuses or fails at, at start-up and per request, as one enum:
/// callers switch on the case, each case names where (a path, a tileset id, a tile), and
/// `description` is one line saying what was wrong and what would be right.
///
/// Request cases carry the HTTP status they are answered with (`status`); their description is
/// the plain-text body of that answer. Start-up cases have no status: they stop `tegula serve`.
public enum ServerError: Error, CustomStringConvertible, Equatable, Sendable {
    // MARK: Start-up (building the catalogue)

    /// A PATH argument is neither a tileset nor a folder holding tilesets.
    case noTileset(path: String, reason: String)
    /// Two tilesets would get the same id.
    case duplicateID(id: String, first: String, second: String)
    /// Nothing to serve.
    case emptyCatalogue

    // MARK: Requests

    /// The request target is longer than the configured limit (414).
    case targetTooLong(limit: Int)
    /// A method other than GET or HEAD (405, with `Allow: GET, HEAD`).
    case methodNotAllowed(method: String)
    /// A target that cannot name anything: bad percent-encoding, a forbidden segment, a tile
    /// number out of range (400); the reason comes from `Route`.
    case malformedTarget(reason: String)
    /// A well-formed target naming no route (404).
    case noRoute
    /// A viewer asset name that is not in the table (404).
    case unknownAsset(name: String)
    /// A tileset id that is not in the catalogue (404).
    case unknownTileset(id: String)
    /// A tile asked for with another extension than the tileset's format (404).
    case wrongTileFormat(id: String, fileExtension: String)
    /// A tile asked for with (or without) `@2x` against the tileset's scale (404).
    case wrongTileScale(id: String, tilesetIsRetina: Bool)
    /// A zoom outside the tileset's zoom range (404).
    case zoomOutsideTileset(id: String, zoom: Int, minZoom: Int, maxZoom: Int)
    /// An in-range tile the tileset does not hold (404, or 204 with `--missing 204`).
    case missingTile(id: String, tile: Tile)
    /// Reading a tile from its tileset failed (500).
    case readFailed(id: String, tile: Tile, reason: String)
    /// A tile of a source made on request lies outside its footprint or mask (404, no render).
    case outsideFootprint(id: String, tile: Tile)
    /// Making a tile of a source made on request failed (500).
    case renderFailed(id: String, tile: Tile, reason: String)
    /// The client went away before its tile was made (503; nobody reads it).
    case clientGone(tile: Tile)

    /// The HTTP status a request case is answered with; nil for start-up cases.
    public var status: Int? {
        switch self {
        case .noTileset, .duplicateID, .emptyCatalogue: return nil
        case .targetTooLong: return 414
        case .methodNotAllowed: return 405
        case .malformedTarget: return 400
        case .noRoute, .unknownAsset, .unknownTileset, .wrongTileFormat, .wrongTileScale, .zoomOutsideTileset,
             .missingTile, .outsideFootprint:
            return 404
        case .readFailed, .renderFailed: return 500
        case .clientGone: return 503
        }
    }

    /// One line: what, where, what would be right.
    public var description: String {
        switch self {
        case let .noTileset(path, reason):
            return "\(path): not a tileset (\(reason)); give \(Self.tilesetForms), or a folder holding them"
        case let .duplicateID(id, first, second):
            return "two tilesets have the id '\(id)' (\(first) and \(second)); rename one so ids (file names "
                + "without extension) are unique"
        case .emptyCatalogue:
            return "no tilesets found; give at least one: \(Self.tilesetForms)"
        case let .targetTooLong(limit):
            return "request target longer than \(limit) bytes"
        case let .methodNotAllowed(method):
            return "method \(method) not allowed; use GET or HEAD"
        case let .malformedTarget(reason):
            return reason
        case .noRoute:
            return "nothing here; try / or /{id}.json"
        case let .unknownAsset(name):
            return "no asset '\(name)'"
        case let .unknownTileset(id):
            return "no tileset '\(id)'"
        case let .wrongTileFormat(id, ext):
            return "tileset '\(id)' has .\(ext) tiles"
        case let .wrongTileScale(id, retina):
            return retina ? "tileset '\(id)' has @2x tiles only" : "tileset '\(id)' has no @2x tiles"
        case let .zoomOutsideTileset(id, zoom, minZoom, maxZoom):
            return "zoom \(zoom) is outside tileset '\(id)' (\(minZoom)–\(maxZoom))"
        case let .missingTile(id, tile):
            return "no tile \(tile) in '\(id)'"
        case let .readFailed(_, tile, reason):
            return "reading \(tile): \(reason)"
        case let .outsideFootprint(id, tile):
            return "tile \(tile) is outside the footprint of '\(id)'"
        case let .renderFailed(id, tile, reason):
            return "rendering tile \(tile) of '\(id)' failed: \(reason)"
        case let .clientGone(tile):
            return "the client went away before tile \(tile) was rendered"
        }
    }

    /// The tileset forms `Tileset` reads, as the messages name them: "a tile folder with
    /// tiles.json, a *.mbtiles, a *.pmtiles".
    static var tilesetForms: String {
        (["a tile folder with \(Tileset.folderDescriptionName)"]
            + Tileset.Form.allCases.compactMap(\.fileExtension).map { "a *.\($0)" }).joined(separator: ", ")
    }
}
