import Foundation
import TegulaGeometry
import TegulaPyramid
import TegulaTileset
import TegulaWarp

/// The tile stage's settings as a pipeline file gives them (`tile:`): zooms, tile size, format,
/// layout and metadata. Strict keys; see `pipelines/schema.json`. The keys given are kept as
/// written, private (nil where left out: they are encoded for the stage hash as they were);
/// decoding checks them into ``settings``, what the stages read.
public struct TileOptions: Sendable, Hashable, Codable {
    /// Lowest zoom; nil = where the scan is about one tile.
    private var minZoom: Int?
    /// Highest zoom; nil = the warp stage's zoom.
    private var maxZoom: Int?
    /// 256 or 512; nil = 256.
    private var tileSize: Int?
    /// 1 or 2 (`@2x` tiles); nil = 1.
    private var scale: Int?
    /// png, jpg, webp, png8 or auto; nil = png.
    private var format: TileFormat?
    /// 1–100 for jpg (nil = 85), lossy webp (nil = lossless) and auto's opaque tiles (nil = 85).
    private var quality: Int?
    /// jpeg or webp: what `auto` writes for opaque tiles; nil = jpeg. Only with format auto.
    private var autoLossy: AutoLossy?
    /// libwebp's effort 0–9 for lossless webp; nil = ``WebPEffort/default``. Only with format
    /// webp and no quality.
    private var webpEffort: WebPEffort?
    /// Folder row order; nil = xyz.
    private var layout: TileOrigin?
    /// Kernel at the max zoom; nil = bilinear.
    private var resampling: Resampling?
    /// Tileset name in the metadata; nil = the map's name.
    public private(set) var name: String?
    /// Attribution in the metadata.
    public private(set) var attribution: String?
    /// The tile matrix set as written: a built-in id or a TMS 2.0 JSON file (relative to the
    /// pipeline file, or the map's entry); nil = WebMercatorQuad.
    private var tms: String?
    /// The set ``tms`` names: a built-in one when decoded, a file once the pipeline is loaded
    /// (``resolveTileMatrixSet(base:)``).
    public private(set) var tileMatrixSet = TileMatrixSet.webMercatorQuad
    /// The settings these keys give, checked; the max zoom is nil (auto) when `max_zoom` is
    /// left out (``settings(defaultMaxZoom:)`` sets the warp zoom there).
    public private(set) var settings = TileSettings.defaults

    /// No keys: every default.
    public init() {}

    /// The keys a pipeline file may use under `tile:`.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case minZoom = "min_zoom", maxZoom = "max_zoom", tileSize = "tile_size", scale, format, quality,
            autoLossy = "auto_lossy", webpEffort = "webp_effort", layout,
            resampling, name, attribution, tms
    }

    /// Decode, checking each key as it is read (``TileSettings``' and ``TileEncoding``'s checks)
    /// and naming the accepted values when one is wrong.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func zoom(_ key: CodingKeys) throws -> Int? {
            guard let z = try c.decodeIfPresent(Int.self, forKey: key) else { return nil }
            guard ZoomRange.isZoom(z) else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: c, debugDescription: "zoom \(z) is out of range; expected 0–\(WebMercator.maxZoom)")
            }
            return z
        }
        /// `body`'s refusal as the decoding error of `key`.
        func checked<T>(_ key: CodingKeys, _ body: () throws -> T) throws -> T {
            do { return try body() } catch { throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "\(error)") }
        }
        minZoom = try zoom(.minZoom)
        maxZoom = try zoom(.maxZoom)
        guard let zooms = ZoomRequest(min: minZoom, max: maxZoom) else {
            throw DecodingError.dataCorruptedError(forKey: .minZoom, in: c, debugDescription: "min_zoom \(minZoom!) is above max_zoom \(maxZoom!)")
        }
        tileSize = try c.decodeIfPresent(Int.self, forKey: .tileSize)
        try checked(.tileSize) { try TileSettings.check(tileSize: tileSize ?? 256, scale: 1) }
        scale = try c.decodeIfPresent(Int.self, forKey: .scale)
        try checked(.scale) { try TileSettings.check(tileSize: 256, scale: scale ?? 1) }
        format = try c.decodeIfPresent(TileFormat.self, forKey: .format)
        let f = format ?? .default
        quality = try c.decodeIfPresent(Int.self, forKey: .quality)
        _ = try checked(.quality) { try TileEncoding(format: f, quality: quality) }
        autoLossy = try c.decodeIfPresent(AutoLossy.self, forKey: .autoLossy)
        _ = try checked(.autoLossy) { try TileEncoding(format: f, quality: quality, autoLossy: autoLossy) }
        webpEffort = try c.decodeIfPresent(WebPEffort.self, forKey: .webpEffort)
        _ = try checked(.webpEffort) { try TileEncoding(format: f, quality: quality, autoLossy: autoLossy, webpEffort: webpEffort) }
        layout = try c.decodeIfPresent(TileOrigin.self, forKey: .layout)
        resampling = try c.decodeIfPresent(Resampling.self, forKey: .resampling)
        name = try c.decodeIfPresent(String.self, forKey: .name)
        attribution = try c.decodeIfPresent(String.self, forKey: .attribution)
        tms = try c.decodeIfPresent(String.self, forKey: .tms)
        if let tms, TileMatrixSet.builtInNames.contains(tms) { tileMatrixSet = try checked(.tms) { try TileMatrixSet.named(tms) } }
        settings = try TileSettings(
            zooms: zooms, tileSize: tileSize ?? 256, scale: scale ?? 1, layout: layout ?? .topLeft,
            resampling: resampling ?? .default, format: f, quality: quality, autoLossy: autoLossy,
            webpEffort: webpEffort)
    }

    /// Encode with the same keys (for hashing and the plan).
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(minZoom, forKey: .minZoom)
        try c.encodeIfPresent(maxZoom, forKey: .maxZoom)
        try c.encodeIfPresent(tileSize, forKey: .tileSize)
        try c.encodeIfPresent(scale, forKey: .scale)
        try c.encodeIfPresent(format, forKey: .format)
        try c.encodeIfPresent(quality, forKey: .quality)
        try c.encodeIfPresent(autoLossy, forKey: .autoLossy)
        try c.encodeIfPresent(webpEffort, forKey: .webpEffort)
        try c.encodeIfPresent(layout, forKey: .layout)
        try c.encodeIfPresent(resampling, forKey: .resampling)
        try c.encodeIfPresent(name, forKey: .name)
        try c.encodeIfPresent(attribution, forKey: .attribution)
        try c.encodeIfPresent(tms, forKey: .tms)
    }

    /// True when `tms` is given (a composite refuses it).
    public var namesTileMatrixSet: Bool { tms != nil }

    /// Reads the set `tms` names when it is a file, relative to `base` (the pipeline file's
    /// folder, or the map entry's); a refusal is ``TileMatrixSet/init(argument:)``'s line.
    public mutating func resolveTileMatrixSet(base: String) throws {
        guard let tms, !TileMatrixSet.builtInNames.contains(tms) else { return }
        let path = tms.hasPrefix("/") ? tms : base + "/" + tms
        // A name that is no file there is refused in the words it was written in.
        tileMatrixSet = try TileMatrixSet(argument: FileManager.default.fileExists(atPath: path) ? path : tms)
    }

    /// ``settings`` with the max zoom, when `max_zoom` is left out, set to `defaultMaxZoom` (the
    /// warp zoom), and the kernel, when `resampling` is left out, `defaultResampling` when given.
    public func settings(defaultMaxZoom: Int?, defaultResampling: Resampling? = nil) -> TileSettings {
        let s = settings.with(zooms: settings.zooms.withDefaultMax(defaultMaxZoom))
        guard resampling == nil, let defaultResampling else { return s }
        return s.with(resampling: defaultResampling)
    }

    /// Why `output` cannot hold the tiles of the set `tms` names, in one line, or nil: MBTiles and
    /// PMTiles hold WebMercatorQuad's tiles only, as `tegula tile --tms` refuses them (a set given
    /// by a file counts as another; WebMercatorQuad is named by its id).
    func refusal(output: String) -> String? {
        guard let tms, tms != TileMatrixSet.webMercatorQuad.id else { return nil }
        let form = Tileset.form(of: output)
        guard form == .mbtiles || form == .pmtiles else { return nil }
        return "\(form == .mbtiles ? "MBTiles" : "PMTiles") holds WebMercatorQuad tiles only, not those of tile.tms \(tms): "
            + "write a GeoPackage (OUT.gpkg) or a folder"
    }

    /// What the stage hash reads of these keys: the keys as written, but the set by its content
    /// (canonical JSON of the parsed set) in place of the name it was given by, so a TMS file
    /// edited in place cuts anew and the same set under another name does not. WebMercatorQuad
    /// adds nothing (a map without the key keeps its hash).
    var hashText: String {
        var keys = self
        keys.tms = nil
        let text = PipelineHashing.json(keys)
        guard tileMatrixSet != .webMercatorQuad else { return text }
        return text + " tms " + PipelineHashing.json(tileMatrixSet)
    }
}
