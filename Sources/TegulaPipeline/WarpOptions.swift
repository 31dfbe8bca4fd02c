import TegulaGeometry
import TegulaWarp

/// The warp stage's settings as a pipeline file gives them (`warp:`): which zoom's grid to warp
/// onto and with which kernel. Strict keys; see `pipelines/schema.json`.
public struct WarpOptions: Sendable, Hashable, Codable {
    /// Zoom whose pixel grid to warp onto; nil = the tile stage's max zoom, else `auto`
    /// (nearest the native resolution, TegulaWarp's `WarpSource.autoZoom(tileSize:)`).
    public var zoom: Int?
    /// Resampling kernel; nil = bilinear.
    public var resampling: Resampling?

    /// Options from their parts; all nil means the defaults.
    public init(zoom: Int? = nil, resampling: Resampling? = nil) {
        self.zoom = zoom
        self.resampling = resampling
    }

    /// The keys a pipeline file may use under `warp:`.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case zoom, resampling
    }

    /// Decode, naming the accepted values when one is wrong.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        zoom = try c.decodeIfPresent(Int.self, forKey: .zoom)
        if let z = zoom, !ZoomRange.isZoom(z) {
            throw DecodingError.dataCorruptedError(
                forKey: .zoom, in: c, debugDescription: "zoom \(z) is out of range; expected 0–\(WebMercator.maxZoom)")
        }
        resampling = try c.decodeIfPresent(Resampling.self, forKey: .resampling)
    }

    /// Encode with the same keys (for hashing and the plan).
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(zoom, forKey: .zoom)
        try c.encodeIfPresent(resampling, forKey: .resampling)
    }
}
