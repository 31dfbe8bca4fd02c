import Foundation
import TegulaGeometry
import TegulaSupport

/// A layer of map tiles addressed by a URL template (MapKit `MKTileOverlay`), for Linux and
/// anywhere else Foundation runs.
///
/// Subclass and override ``url(forTilePath:)`` for custom indexing (quadkeys, WMS boxes) or
/// ``loadTile(at:)`` to produce the bytes yourself (bundles, generated tiles). Clients call
/// ``fetchTile(at:)``, which adds range checks, the LRU cache, one shared load per in-flight path,
/// and overzoom on top of ``loadTile(at:)``.
///
/// Safe to use from concurrent tasks: the settable properties live behind a lock
/// (`@unchecked Sendable` is justified by that lock; subclasses adding state must lock it too).
open class TileOverlay: MapOverlay, @unchecked Sendable {
    struct Settings {
        /// The template as given (MapKit `urlTemplate`), parsed or not.
        var templateString: String?
        var template: TileURLTemplate?
        /// Why `templateString` did not parse, if it did not.
        var templateError: TileOverlayError?
        var tileSize = TileSize(width: 256, height: 256)
        var isGeometryFlipped = false
        var minimumZ = 0
        var maximumZ = 21
        var canReplaceMapContent = false
        var boundingMapRect = MapRect.world
        var maximumNativeZ: Int?
        var overzoomRenderer: (any OverzoomRendering)?
    }

    let settings: Locked<Settings>
    let inFlight = Locked([TileOverlayPath: Task<TileCache.Entry, any Error>]())
    let loadCount = Locked(0)

    /// The in-memory tile cache `fetchTile(at:)` consults (32 MiB unless given).
    public let cache: TileCache
    /// Loads file and HTTP(S) URLs for the default `loadTile(at:)`.
    public let loader: TileURLLoader

    /// An overlay on a checked template, or nil for a subclass that makes its own URLs or data.
    public init(
        template: TileURLTemplate?, cache: TileCache = TileCache(byteBudget: 32 << 20),
        loader: TileURLLoader = TileURLLoader()
    ) {
        settings = Locked(Settings(templateString: template?.string, template: template))
        self.cache = cache
        self.loader = loader
    }

    /// An overlay on a URL template (MapKit `init(urlTemplate:)`, and like it not throwing, so
    /// code written for MapKit compiles unchanged): `{x}` `{y}` `{z}` `{scale}`, plus the extra
    /// placeholders when `placeholders` is ``TileURLTemplate/PlaceholderSet/extended(subdomains:)``.
    ///
    /// A template that does not parse (a placeholder outside the set, an unclosed `{`) never
    /// reaches a server: `validate()` throws its error, and so does the first `loadTile(at:)`
    /// (hence `fetchTile(at:)`); `url(forTilePath:)` gives `noTemplateURL` for it.
    public convenience init(urlTemplate: String?, placeholders: TileURLTemplate.PlaceholderSet = .mapKit) {
        var parsed: TileURLTemplate?
        var failure: TileOverlayError?
        if let urlTemplate {
            do { parsed = try TileURLTemplate(urlTemplate, placeholders: placeholders) } catch { failure = error }
        }
        self.init(template: parsed)
        settings.withLock {
            $0.templateString = urlTemplate
            $0.templateError = failure
        }
    }

    /// Checks the URL template given at init: throws `.unknownPlaceholder`, `.unclosedPlaceholder`
    /// or `.missingSubdomains` for one that does not parse; nothing for a good template or none.
    /// Call it where a bad template should stop you early (MapKit has no such check).
    public func validate() throws(TileOverlayError) {
        if let error = settings.withLock({ $0.templateError }) { throw error }
    }

    // MARK: Properties (MapKit names and defaults)

    /// The template as written, or nil (MapKit `urlTemplate`).
    public var urlTemplate: String? { settings.withLock { $0.templateString } }
    /// The parsed template; nil when there is none or it did not parse (see `validate()`).
    public var template: TileURLTemplate? { settings.withLock { $0.template } }
    /// Tile size in points, 256×256 by default (MapKit `tileSize`); 512 for "retina-native" sets.
    public var tileSize: TileSize {
        get { settings.withLock { $0.tileSize } }
        set { settings.withLock { $0.tileSize = newValue } }
    }
    /// True when rows count from the bottom (TMS), so paths carry TMS rows (MapKit `isGeometryFlipped`).
    public var isGeometryFlipped: Bool {
        get { settings.withLock { $0.isGeometryFlipped } }
        set { settings.withLock { $0.isGeometryFlipped = newValue } }
    }
    /// The grid origin `isGeometryFlipped` selects.
    public var origin: TileOrigin { isGeometryFlipped ? .bottomLeft : .topLeft }
    /// Lowest zoom with tiles, 0 by default (MapKit `minimumZ`); nothing is loaded below it.
    public var minimumZ: Int {
        get { settings.withLock { $0.minimumZ } }
        set { settings.withLock { $0.minimumZ = newValue } }
    }
    /// Highest zoom with tiles, 21 by default (MapKit `maximumZ`); nothing is loaded above it.
    public var maximumZ: Int {
        get { settings.withLock { $0.maximumZ } }
        set { settings.withLock { $0.maximumZ = newValue } }
    }
    /// A hint that tiles are opaque and may hide the base map, false by default (MapKit).
    public var canReplaceMapContent: Bool {
        get { settings.withLock { $0.canReplaceMapContent } }
        set { settings.withLock { $0.canReplaceMapContent = newValue } }
    }
    /// The area with tiles, the world by default (MapKit `boundingMapRect`).
    public var boundingMapRect: MapRect {
        get { settings.withLock { $0.boundingMapRect } }
        set { settings.withLock { $0.boundingMapRect = newValue } }
    }
    /// The centre of `boundingMapRect` (MapKit `coordinate`).
    public var coordinate: Coordinate {
        let r = boundingMapRect
        return MapPoint(x: r.midX, y: r.midY).coordinate
    }
    /// The deepest zoom the source really has; between it and `maximumZ`, `fetchTile(at:)` crops
    /// and upscales the ancestor tile (react-native-maps `maximumNativeZ`). nil: no overzoom.
    public var maximumNativeZ: Int? {
        get { settings.withLock { $0.maximumNativeZ } }
        set { settings.withLock { $0.maximumNativeZ = newValue } }
    }
    /// What makes a tile past ``maximumNativeZ`` from its ancestor's bytes (decode, crop,
    /// encode). nil by default: this module links no image codec, so such tiles fail with
    /// `.imageFailed` until one is set (TegulaTilesetOverlay's `PNGOverzoomRenderer`).
    public var overzoomRenderer: (any OverzoomRendering)? {
        get { settings.withLock { $0.overzoomRenderer } }
        set { settings.withLock { $0.overzoomRenderer = newValue } }
    }
    /// How many times `loadTile(at:)` was called through `fetchTile(at:)`; for this package's
    /// tests (`@testable import`), not part of the API.
    var loadsStarted: Int { loadCount.current }

    // MARK: Hooks

    /// Returned by `url(forTilePath:)` when there is no template or it did not parse;
    /// `loadTile(at:)` rejects it.
    public static let noTemplateURL = URL(string: "about:blank")!

    /// The URL of a tile (MapKit `url(forTilePath:)`): the template filled for `path`. A template
    /// starting with `/` is a file path. Override for custom indexing.
    open func url(forTilePath path: TileOverlayPath) -> URL {
        guard let template else { return Self.noTemplateURL }
        let filled = template.fill(path, origin: origin)
        if filled.hasPrefix("/") { return URL(fileURLWithPath: filled) }
        if let url = URL(string: filled) { return url }
        let escaped = filled.addingPercentEncoding(withAllowedCharacters: .urlFragmentAllowed) ?? filled
        return URL(string: escaped) ?? Self.noTemplateURL
    }

    /// The bytes of a tile (MapKit `loadTile(at:)`): loads `url(forTilePath:)` from a file or
    /// over HTTP(S). Throws `.tileMissing` when the tile does not exist, the template's error when
    /// it did not parse, `.noTemplate` when there is none. Override to produce tiles another way.
    open func loadTile(at path: TileOverlayPath) async throws -> Data {
        let url = url(forTilePath: path)
        if url == Self.noTemplateURL {
            throw settings.withLock { $0.templateError } ?? TileOverlayError.noTemplate(path: path)
        }
        return try await loader.load(url, for: path)
    }
}

/// A tile's size in points (MapKit uses `CGSize`; this keeps the module free of CoreGraphics).
public struct TileSize: Hashable, Sendable {
    /// Width in points.
    public var width: Int
    /// Height in points.
    public var height: Int
    /// A size.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}
