import Foundation

/// Everything that can go wrong in the overlay module, in the shape of Tegula's errors — a reason
/// callers switch on, where, and one line saying what was wrong and what would be right — but
/// self-contained, so an app sees only this library's types: the tile it was about, the source
/// (a file, a URL, a tileset) and the error underneath, when there are ones.
///
/// A tile that does not exist (HTTP 404, an absent file, an absent bundle entry) is
/// `.tileMissing`, never `.loadFailed`, so callers can draw a blank or fall back to a parent tile
/// instead of reporting a failure. Test with `isMissingTile`; branch on the
/// ``TileOverlayErrorReason``.
public struct TileOverlayError: Error, CustomStringConvertible, Sendable, Equatable {
    /// Which kind of failure.
    public var reason: TileOverlayErrorReason
    /// The tile it was about; nil for errors of a template or a tileset as a whole.
    public var tile: TileOverlayPath?
    /// Where the bytes were to come from (a file path, a URL, a tileset), printed before the
    /// message; nil when the message names the place itself.
    public var source: String?
    /// What failed underneath (a file read, a transfer, a decoder, a tileset reader), when
    /// something did.
    public var underlying: (any Error)?
    /// What was wrong and what would be right.
    public var message: String

    /// An error of `reason` about `tile` from `source`, caused by `underlying`, saying `message`.
    public init(
        _ reason: TileOverlayErrorReason, tile: TileOverlayPath? = nil, source: String? = nil,
        underlying: (any Error)? = nil, _ message: String
    ) {
        self.reason = reason
        self.tile = tile
        self.source = source
        self.underlying = underlying
        self.message = message
    }

    /// `source: message`, on one line whatever the message holds.
    public var description: String {
        let m = message.replacingOccurrences(of: "\n", with: " ")
        return source.map { "\($0): \(m)" } ?? m
    }

    /// Equal when reason, tile, source and message agree and the underlying errors print alike.
    public static func == (a: TileOverlayError, b: TileOverlayError) -> Bool {
        a.reason == b.reason && a.tile == b.tile && a.source == b.source && a.message == b.message
            && a.underlying.map { "\($0)" } == b.underlying.map { "\($0)" }
    }
}

/// The kinds of TileOverlayError, for callers and tests that branch on them.
public enum TileOverlayErrorReason: String, Sendable, Hashable {
    /// A `{name}` in a URL template that the chosen placeholder set does not know.
    case unknownPlaceholder
    /// A `{` without its `}`.
    case unclosedPlaceholder
    /// `{s}` used without any subdomains to fill it.
    case missingSubdomains
    /// A template lacks a placeholder its overlay needs (e.g. `{q}` for a quadkey overlay).
    case missingPlaceholder
    /// The filled template is not a URL.
    case invalidURL
    /// The overlay has no template and the subclass did not override `url(forTilePath:)`.
    case noTemplate
    /// The path's zoom is outside `minimumZ...maximumZ`, or x/y outside the zoom's grid.
    case pathOutOfRange
    /// The tile does not exist at its source (HTTP 404, absent file, absent bundle entry).
    case tileMissing
    /// The source exists but loading from it failed (I/O error, HTTP 5xx, unreadable bundle).
    case loadFailed
    /// The URL's scheme is neither file, http nor https.
    case unsupportedScheme
    /// A tile's bytes could not be decoded or re-encoded for overzoom.
    case imageFailed
    /// A tileset bundle could not be opened as an overlay.
    case bundleFailed
}

/// The overlay's errors, one constructor per reason, so each message is written once.
extension TileOverlayError {
    /// True for `.tileMissing`: the tile does not exist, which is not a failure.
    public var isMissingTile: Bool { reason == .tileMissing }

    /// `{name}` at character `offset` of `template` is not among `allowed`.
    public static func unknownPlaceholder(name: String, template: String, offset: Int, allowed: [String]) -> TileOverlayError {
        TileOverlayError(
            .unknownPlaceholder,
            "unknown placeholder {\(name)} at character \(offset) of URL template \"\(template)\";"
                + " expected one of \(allowed.map { "{\($0)}" }.joined(separator: " "))"
                + " (extra placeholders need `placeholders: .extended(subdomains: […])`)")
    }

    /// A `{` at character `offset` of `template` is never closed.
    public static func unclosedPlaceholder(template: String, offset: Int) -> TileOverlayError {
        TileOverlayError(
            .unclosedPlaceholder,
            "unclosed \"{\" at character \(offset) of URL template \"\(template)\"; close it with \"}\"")
    }

    /// `template` uses `{s}` without subdomains.
    public static func missingSubdomains(template: String) -> TileOverlayError {
        TileOverlayError(
            .missingSubdomains,
            "URL template \"\(template)\" uses {s} but no subdomains were given;"
                + " pass `.extended(subdomains: [\"a\", \"b\", \"c\"])`")
    }

    /// `template` holds none of the placeholders `needed`.
    public static func missingPlaceholder(template: String, needed: [String]) -> TileOverlayError {
        TileOverlayError(
            .missingPlaceholder,
            "URL template \"\(template)\" needs one of \(needed.map { "{\($0)}" }.joined(separator: " "))")
    }

    /// The template filled for `path` (`string`) is not a URL.
    public static func invalidURL(_ string: String, path: TileOverlayPath) -> TileOverlayError {
        TileOverlayError(.invalidURL, tile: path, "tile \(path): filled template \"\(string)\" is not a valid URL; check the template")
    }

    /// No template and no overriding hook for `path`.
    public static func noTemplate(path: TileOverlayPath) -> TileOverlayError {
        TileOverlayError(
            .noTemplate, tile: path,
            "tile \(path): the overlay has no URL template;"
                + " give one, or override url(forTilePath:) or loadTile(at:) in a subclass")
    }

    /// `path` lies outside `minimumZ...maximumZ` or its zoom's grid.
    public static func pathOutOfRange(path: TileOverlayPath, minimumZ: Int, maximumZ: Int) -> TileOverlayError {
        TileOverlayError(
            .pathOutOfRange, tile: path,
            "tile \(path) is outside the overlay: zoom must be \(minimumZ)...\(maximumZ)"
                + " and x, y within 0..<2^z")
    }

    /// The tile at `path` does not exist at `source`.
    public static func tileMissing(path: TileOverlayPath, source: String) -> TileOverlayError {
        TileOverlayError(.tileMissing, tile: path, source: source, "tile \(path) does not exist")
    }

    /// Loading `path` from `source` failed with `reason` (the words of `underlying`, if any).
    public static func loadFailed(
        path: TileOverlayPath, source: String, reason: String,
        underlying: (any Error)? = nil
    ) -> TileOverlayError {
        TileOverlayError(.loadFailed, tile: path, source: source, underlying: underlying, "tile \(path): loading failed: \(reason)")
    }

    /// `url` has a scheme the loader does not speak.
    public static func unsupportedScheme(_ url: URL) -> TileOverlayError {
        TileOverlayError(
            .unsupportedScheme, source: url.absoluteString,
            "cannot load: scheme \"\(url.scheme ?? "")\" is not file, http or https")
    }

    /// The overzoom image step failed for `path` with `reason` (the words of `underlying`, if any).
    public static func imageFailed(path: TileOverlayPath, reason: String, underlying: (any Error)? = nil) -> TileOverlayError {
        TileOverlayError(
            .imageFailed, tile: path, underlying: underlying, "tile \(path): overzoom image step failed: \(reason); overzoom needs PNG tiles")
    }

    /// The tileset at `path` (the source) cannot be opened as an overlay, with `reason` (the
    /// words of `underlying`, if any).
    public static func bundleFailed(path: String, reason: String, underlying: (any Error)? = nil) -> TileOverlayError {
        TileOverlayError(
            .bundleFailed, source: path, underlying: underlying,
            "cannot open the tileset as an overlay: \(reason);"
                + " expected an .mbtiles or .pmtiles file or a z/x/y tiles folder")
    }
}
