import HTTPTypes
import TegulaGeometry
import TegulaHTTP
import TegulaSupport
import TegulaTileset

/// What the tile server (`tegula serve`) refuses or fails at, at start-up and per request, in
/// Tegula's one error shape; the HTTP core's own refusals (a long target, a method, a malformed
/// target, no route) stay ``ServerError``s, the IIIF image server's `IIIFServerError`s.
public typealias TileServerError = LocatedError<TileServerErrorReason>

/// The kinds of TileServerError, for callers and tests that branch on them. Request reasons carry
/// the HTTP status they are answered with (``status``); start-up reasons have none: they stop
/// `tegula serve`.
public enum TileServerErrorReason: String, HTTPErrorReason {
    // Start-up: building the catalogue.

    /// A PATH argument is neither a tileset nor a folder holding tilesets.
    case noTileset
    /// Two tilesets would get the same id.
    case duplicateID
    /// Nothing to serve.
    case emptyCatalogue

    // Requests.

    /// A viewer asset name that is not in the table (404).
    case unknownAsset
    /// A tileset id that is not in the catalogue (404).
    case unknownTileset
    /// An XYZ tile or the TileJSON of a tileset in another tile matrix set than WebMercatorQuad,
    /// which both name Web Mercator tiles (404).
    case otherTileMatrixSet
    /// A sheet index asked for of a tileset that has none beside it (404).
    case noSheetIndex
    /// A tile asked for with another extension than the tileset's format (404).
    case wrongTileFormat
    /// A tile asked for with (or without) `@2x` against the tileset's scale (404).
    case wrongTileScale
    /// A zoom outside the tileset's zoom range (404).
    case zoomOutsideTileset
    /// An in-range tile the tileset does not hold (404, or 204 with `--missing 204`).
    case missingTile
    /// Reading a tile from its tileset failed (500).
    case readFailed
    /// A tile of a source made on request lies outside its footprint or mask (404, no render).
    case outsideFootprint
    /// Making a tile of a source made on request failed (500).
    case renderFailed
    /// The client went away before its tile was made (503; nobody reads it).
    case clientGone
    /// The server a source's pixels come from (an IIIF image's) failed after its retries (503
    /// with `Retry-After`: never a blank 200 that a cache would keep).
    case upstreamUnavailable

    /// The HTTP status a request is refused with; nil for start-up reasons.
    public var status: HTTPResponse.Status? {
        switch self {
        case .noTileset, .duplicateID, .emptyCatalogue: return nil
        case .unknownAsset, .unknownTileset, .otherTileMatrixSet, .noSheetIndex, .wrongTileFormat, .wrongTileScale, .zoomOutsideTileset, .missingTile,
            .outsideFootprint:
            return 404
        case .readFailed, .renderFailed: return 500
        case .clientGone, .upstreamUnavailable: return 503
        }
    }
}

/// The tile server's errors, one constructor per reason, so each message is written once.
extension LocatedError where Reason == TileServerErrorReason {
    /// `path` is neither a tileset nor a folder holding tilesets.
    public static func noTileset(path: String, reason: String) -> TileServerError {
        TileServerError(.noTileset, at: path, "not a tileset (\(reason)); give \(tilesetForms), or a folder holding them")
    }

    /// Two paths give the same tileset id.
    public static func duplicateID(id: String, first: String, second: String) -> TileServerError {
        TileServerError(
            .duplicateID,
            "two tilesets have the id '\(id)' (\(first) and \(second)); rename one so ids "
                + "(file names without extension) are unique")
    }

    /// No tileset was found.
    public static var emptyCatalogue: TileServerError {
        TileServerError(.emptyCatalogue, "no tilesets found; give at least one: \(tilesetForms)")
    }

    /// A viewer asset that is not in the table.
    public static func unknownAsset(name: String) -> TileServerError { TileServerError(.unknownAsset, "no asset '\(name)'") }

    /// A tileset id that is not in the catalogue.
    public static func unknownTileset(id: String) -> TileServerError { TileServerError(.unknownTileset, "no tileset '\(id)'") }

    /// An XYZ tile or the TileJSON of tileset `id`, which is in the tile matrix set `set`.
    public static func otherTileMatrixSet(id: String, set: String) -> TileServerError {
        TileServerError(
            .otherTileMatrixSet,
            "tileset '\(id)' is in the tile matrix set \(set), and XYZ paths and TileJSON name Web Mercator tiles: "
                + "ask OGC API – Tiles (/ogcapi/collections/\(id)/map/tiles) or WMTS (/wmts?SERVICE=WMTS&REQUEST=GetCapabilities)")
    }

    /// A sheet index asked for of a tileset without one.
    public static func noSheetIndex(id: String) -> TileServerError {
        TileServerError(.noSheetIndex, "tileset '\(id)' has no sheet index (a pipeline writes one beside a composite: OUTPUT.index.geojson)")
    }

    /// A tile asked for with another extension than the tileset's (`fileExtension`).
    public static func wrongTileFormat(id: String, fileExtension: String) -> TileServerError {
        TileServerError(.wrongTileFormat, "tileset '\(id)' has .\(fileExtension) tiles")
    }

    /// A tile name with or without `@2x` against the tileset's scale.
    public static func wrongTileScale(id: String, tilesetIsRetina: Bool) -> TileServerError {
        TileServerError(.wrongTileScale, tilesetIsRetina ? "tileset '\(id)' has @2x tiles only" : "tileset '\(id)' has no @2x tiles")
    }

    /// A zoom outside the tileset's `zooms`.
    public static func zoomOutsideTileset(id: String, zoom: Int, zooms: ZoomRange) -> TileServerError {
        TileServerError(.zoomOutsideTileset, "zoom \(zoom) is outside tileset '\(id)' (\(zooms.min)–\(zooms.max))")
    }

    /// An in-range tile the tileset does not hold.
    public static func missingTile(id: String, tile: Tile) -> TileServerError {
        TileServerError(.missingTile, "no tile \(tile) in '\(id)'")
    }

    /// Reading `tile` of tileset `id` failed with `reason`.
    public static func readFailed(id: String, tile: Tile, reason: String) -> TileServerError {
        TileServerError(.readFailed, "reading \(tile) of '\(id)': \(reason)")
    }

    /// Tile `tile` of the on-request source `id` lies outside its footprint or mask.
    public static func outsideFootprint(id: String, tile: Tile) -> TileServerError {
        TileServerError(.outsideFootprint, "tile \(tile) is outside the footprint of '\(id)'")
    }

    /// Rendering tile `tile` of the on-request source `id` failed with `reason`.
    public static func renderFailed(id: String, tile: Tile, reason: String) -> TileServerError {
        TileServerError(.renderFailed, "rendering tile \(tile) of '\(id)' failed: \(reason)")
    }

    /// Tile `tile` of `id` could not be made because the server its pixels come from failed.
    public static func upstreamUnavailable(id: String, tile: Tile, reason: String) -> TileServerError {
        TileServerError(.upstreamUnavailable, "tile \(tile) of '\(id)' cannot be made now: \(reason)")
    }

    /// The client went away before `tile` was rendered.
    public static func clientGone(tile: Tile) -> TileServerError {
        TileServerError(.clientGone, "the client went away before tile \(tile) was rendered")
    }

    /// The tileset forms `Tileset` reads, as the messages name them: "a tile folder with
    /// tiles.json, a *.mbtiles, a *.pmtiles".
    static var tilesetForms: String {
        (["a tile folder with \(Tileset.folderDescriptionName)"]
            + Tileset.Form.allCases.compactMap(\.fileExtension).map { "a *.\($0)" }).joined(separator: ", ")
    }
}
