import Foundation

/// Everything that can go wrong in the overlay module: one error type, messages that say what
/// was wrong, where, and what would be right.
///
/// A tile that does not exist (HTTP 404, an absent file, an absent bundle entry) is
/// `.tileMissing`, never `.loadFailed`, so callers can draw a blank or fall back to a parent tile
/// instead of reporting a failure. Test with `isMissingTile`.
public enum TileOverlayError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A `{name}` in a URL template that the chosen placeholder set does not know.
    case unknownPlaceholder(name: String, template: String, offset: Int, allowed: [String])
    /// A `{` without its `}`.
    case unclosedPlaceholder(template: String, offset: Int)
    /// `{s}` used without any subdomains to fill it.
    case missingSubdomains(template: String)
    /// A template lacks a placeholder its overlay needs (e.g. `{q}` for a quadkey overlay).
    case missingPlaceholder(template: String, needed: [String])
    /// The filled template is not a URL.
    case invalidURL(String, path: TileOverlayPath)
    /// The overlay has no template and the subclass did not override `url(forTilePath:)`.
    case noTemplate(path: TileOverlayPath)
    /// The path's zoom is outside `minimumZ...maximumZ`, or x/y outside the zoom's grid.
    case pathOutOfRange(path: TileOverlayPath, minimumZ: Int, maximumZ: Int)
    /// The tile does not exist at its source (HTTP 404, absent file, absent bundle entry).
    case tileMissing(path: TileOverlayPath, source: String)
    /// The source exists but loading from it failed (I/O error, HTTP 5xx, unreadable bundle).
    case loadFailed(path: TileOverlayPath, source: String, reason: String)
    /// The URL's scheme is neither file, http nor https.
    case unsupportedScheme(URL)
    /// A tile's bytes could not be decoded or re-encoded for overzoom.
    case imageFailed(path: TileOverlayPath, reason: String)
    /// A tileset bundle could not be opened as an overlay.
    case bundleFailed(path: String, reason: String)

    /// True for `.tileMissing`: the tile does not exist, which is not a failure.
    public var isMissingTile: Bool {
        if case .tileMissing = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case let .unknownPlaceholder(name, template, offset, allowed):
            return "unknown placeholder {\(name)} at character \(offset) of URL template \"\(template)\";"
                + " expected one of \(allowed.map { "{\($0)}" }.joined(separator: " "))"
                + " (extra placeholders need `placeholders: .extended`)"
        case let .unclosedPlaceholder(template, offset):
            return "unclosed \"{\" at character \(offset) of URL template \"\(template)\"; close it with \"}\""
        case let .missingSubdomains(template):
            return "URL template \"\(template)\" uses {s} but no subdomains were given;"
                + " pass `.extended(subdomains: [\"a\", \"b\", \"c\"])`"
        case let .missingPlaceholder(template, needed):
            return "URL template \"\(template)\" needs one of \(needed.map { "{\($0)}" }.joined(separator: " "))"
        case let .invalidURL(string, path):
            return "tile \(path): filled template \"\(string)\" is not a valid URL; check the template"
        case let .noTemplate(path):
            return "tile \(path): the overlay has no URL template;"
                + " give one, or override url(forTilePath:) or loadTile(at:) in a subclass"
        case let .pathOutOfRange(path, minimumZ, maximumZ):
            return "tile \(path) is outside the overlay: zoom must be \(minimumZ)...\(maximumZ)"
                + " and x, y within 0..<2^z"
        case let .tileMissing(path, source):
            return "tile \(path) does not exist at \(source)"
        case let .loadFailed(path, source, reason):
            return "tile \(path): loading \(source) failed: \(reason)"
        case let .unsupportedScheme(url):
            return "cannot load \(url.absoluteString): scheme \"\(url.scheme ?? "")\" is not file, http or https"
        case let .imageFailed(path, reason):
            return "tile \(path): overzoom image step failed: \(reason); overzoom needs PNG tiles"
        case let .bundleFailed(path, reason):
            return "cannot open tileset \(path) as an overlay: \(reason);"
                + " expected an .mbtiles or .pmtiles file or a z/x/y tiles folder"
        }
    }
}
