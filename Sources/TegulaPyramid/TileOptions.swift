import TegulaBundle
import TegulaGeometry
import TegulaWarp

/// The tile stage's settings as a pipeline file gives them (`tile:`): zooms, tile size, format,
/// layout and metadata. Strict keys; see `pipelines/schema.json`. ``apply(to:)`` sets them on a
/// ``TileJob``.
public struct TileOptions: Sendable, Hashable, Codable {
    /// Lowest zoom; nil = where the scan is about one tile.
    public var minZoom: Int?
    /// Highest zoom; nil = the warp stage's zoom.
    public var maxZoom: Int?
    /// 256 or 512; nil = 256.
    public var tileSize: Int?
    /// 1 or 2 (`@2x` tiles); nil = 1.
    public var scale: Int?
    /// png, jpg, webp, png8 or auto; nil = png.
    public var format: TileFormat?
    /// 1–100 for jpg (nil = 85), lossy webp (nil = lossless) and auto's opaque tiles (nil = 85).
    public var quality: Int?
    /// jpeg or webp: what `auto` writes for opaque tiles; nil = jpeg. Only with format auto.
    public var autoLossy: AutoLossy?
    /// libwebp's effort 0–9 for lossless webp; nil = ``WebPEffort/default``. Only with format
    /// webp and no quality.
    public var webpEffort: WebPEffort?
    /// Folder row order; nil = xyz.
    public var layout: TileOrigin?
    /// Kernel at the max zoom; nil = bilinear.
    public var resampling: Resampling?
    /// Tileset name in the metadata; nil = the map's name.
    public var name: String?
    /// Attribution in the metadata.
    public var attribution: String?

    /// Options from their parts; all nil means the defaults.
    public init(minZoom: Int? = nil, maxZoom: Int? = nil, tileSize: Int? = nil, scale: Int? = nil,
                format: TileFormat? = nil, quality: Int? = nil, autoLossy: AutoLossy? = nil, webpEffort: WebPEffort? = nil,
                layout: TileOrigin? = nil, resampling: Resampling? = nil, name: String? = nil, attribution: String? = nil) {
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.tileSize = tileSize
        self.scale = scale
        self.format = format
        self.quality = quality
        self.autoLossy = autoLossy
        self.webpEffort = webpEffort
        self.layout = layout
        self.resampling = resampling
        self.name = name
        self.attribution = attribution
    }

    /// The keys a pipeline file may use under `tile:`.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case minZoom = "min_zoom", maxZoom = "max_zoom", tileSize = "tile_size", scale, format, quality,
             autoLossy = "auto_lossy", webpEffort = "webp_effort", layout,
             resampling, name, attribution
    }

    /// Decode, checking ranges and naming the accepted values when one is wrong.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func zoom(_ key: CodingKeys) throws -> Int? {
            guard let z = try c.decodeIfPresent(Int.self, forKey: key) else { return nil }
            guard ZoomRange.isZoom(z) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "zoom \(z) is out of range; expected 0–\(WebMercator.maxZoom)")
            }
            return z
        }
        minZoom = try zoom(.minZoom)
        maxZoom = try zoom(.maxZoom)
        if let lo = minZoom, let hi = maxZoom, lo > hi {
            throw DecodingError.dataCorruptedError(forKey: .minZoom, in: c, debugDescription: "min_zoom \(lo) is above max_zoom \(hi)")
        }
        tileSize = try c.decodeIfPresent(Int.self, forKey: .tileSize)
        if let t = tileSize, t != 256 && t != 512 {
            throw DecodingError.dataCorruptedError(forKey: .tileSize, in: c, debugDescription: "tile_size \(t): expected 256 or 512")
        }
        scale = try c.decodeIfPresent(Int.self, forKey: .scale)
        if let s = scale, s != 1 && s != 2 {
            throw DecodingError.dataCorruptedError(forKey: .scale, in: c, debugDescription: "scale \(s): expected 1 or 2")
        }
        format = try c.decodeIfPresent(TileFormat.self, forKey: .format)
        quality = try c.decodeIfPresent(Int.self, forKey: .quality)
        if let q = quality {
            do { try TileFormat.checkQuality(q, for: format ?? .default) } catch {
                throw DecodingError.dataCorruptedError(forKey: .quality, in: c, debugDescription: "\(error)")
            }
        }
        autoLossy = try c.decodeIfPresent(AutoLossy.self, forKey: .autoLossy)
        if let a = autoLossy {
            do { try AutoLossy.check(a, for: format ?? .default) } catch {
                throw DecodingError.dataCorruptedError(forKey: .autoLossy, in: c, debugDescription: "\(error)")
            }
        }
        webpEffort = try c.decodeIfPresent(WebPEffort.self, forKey: .webpEffort)
        if webpEffort != nil {
            do { try WebPEffort.check(for: format ?? .default, quality: quality) } catch {
                throw DecodingError.dataCorruptedError(forKey: .webpEffort, in: c, debugDescription: "\(error)")
            }
        }
        layout = try c.decodeIfPresent(TileOrigin.self, forKey: .layout)
        resampling = try c.decodeIfPresent(Resampling.self, forKey: .resampling)
        name = try c.decodeIfPresent(String.self, forKey: .name)
        attribution = try c.decodeIfPresent(String.self, forKey: .attribution)
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
    }

    /// Set these options on a job; `maxZoom` falls back to `defaultMaxZoom` (the warp zoom).
    public func apply(to job: inout TileJob, defaultMaxZoom: Int?) {
        job.minZoom = minZoom
        job.maxZoom = maxZoom ?? defaultMaxZoom
        job.tileSize = tileSize ?? 256
        job.scale = scale ?? 1
        job.format = format ?? .default
        job.quality = quality
        job.autoLossy = autoLossy ?? .default
        job.webpEffort = webpEffort ?? .default
        job.layout = layout ?? .topLeft
        job.resampling = resampling ?? .default
        if let attribution { job.attribution = attribution }
        if let name { job.name = name }
    }
}
