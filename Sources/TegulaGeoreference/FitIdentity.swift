import TegulaSupport

/// What makes one fit of one scan, and nothing else: the scan's path, the transform, the CRS it
/// is fitted in, the GCPs' CRS, every enabled point (pixel and ground, full precision) and the
/// mask. Disabled points, ids and notes are left out: they move no pixel of the map. Its
/// ``version`` names the fit wherever a cache must tell fits apart: the editor's fit (its overlay
/// URLs and predictions) and the fit part of an on-demand source's version, so the same fit has
/// one version in both.
public struct FitIdentity: Sendable, Hashable {
    /// The fields, one per line, as hashed.
    public let text: String

    /// The identity of `georeference` fitted for the scan at `scan`.
    public init(scan: String, georeference g: Georeference) {
        var text = "\(scan)\n\(g.kind.name) in \(g.fitCRS.wkt)\ngcps in \(g.gcps.crs.wkt)\n"
        for p in g.gcps.enabled {
            text += "\(p.pixel.x) \(p.pixel.y) \(p.ground.x) \(p.ground.y)\n"
        }
        if let mask = g.gcps.mask { text += "mask " + mask.map { "\($0.x),\($0.y)" }.joined(separator: " ") }
        self.text = text
    }

    /// 16 hex digits: ``FNV1a`` of ``text``.
    public var version: String { FNV1a.hex(text) }
}
