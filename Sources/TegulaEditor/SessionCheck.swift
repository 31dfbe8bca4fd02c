import Foundation
import TegulaGDAL
import TegulaGeometry
import TegulaGeoreference

/// A session checked against one scan: the GCP set to fit (duplicates left out, and named), the
/// transform (nil: automatic), the mask. Reading the JSON parsed the CRS, the transform and the
/// points (``EditorSession/init(from:)``); what depends on the scan is checked here, once, and a
/// bad value is refused with its place (`gcps[2].ground`) and the GCP's id.
public struct SessionCheck: Sendable {
    /// Every point, as the fit sees it (a duplicate of an earlier enabled point is disabled).
    public let set: GCPSet
    /// nil for `auto`.
    public let transform: TransformKind?
    /// At least three vertices, or nil.
    public let mask: [PixelPoint]?
    /// Ids of enabled points left out of the fit because an earlier enabled point has the same
    /// pixel or the same ground position.
    public let duplicates: [(id: String, of: String)]

    /// Check `session` against a `width` × `height` scan.
    public init(_ session: EditorSession, width: Int, height: Int) throws {
        let crs = session.gcpSRS
        transform = session.transform
        var gcps: [GCP] = []
        var ids: Set<String> = []
        var byPixel: [PixelPoint: String] = [:], byGround: [GroundPoint: String] = [:]
        var duplicates: [(id: String, of: String)] = []
        for (i, g) in session.gcps.enumerated() {
            let place = "gcps[\(i)]"
            guard !g.id.isEmpty, ids.insert(g.id).inserted else {
                throw EditorError(.badSession, at: "\(place).id", "id '\(g.id)' is empty or used twice; every point needs its own id")
            }
            let p = g.pixel
            guard p.x.isFinite, p.y.isFinite else { throw EditorError.notAPoint(.pixelOutsideScan, at: "\(place).pixel (\(g.id))", "[x, y]") }
            guard (0...Double(width)).contains(p.x), (0...Double(height)).contains(p.y) else {
                throw EditorError(
                    .pixelOutsideScan, at: "\(place).pixel (\(g.id))",
                    "(\(p.x), \(p.y)) is outside the \(width) × \(height) scan: x must be 0…\(width), y 0…\(height)")
            }
            let q = g.ground
            guard q.x.isFinite, q.y.isFinite else {
                throw EditorError.notAPoint(.invalidGround, at: "\(place).ground (\(g.id))", "[x, y] (lon, lat)")
            }
            if crs.isGeographic, abs(q.y) > 90 || abs(q.x) > 180 {
                throw EditorError(
                    .invalidGround, at: "\(place).ground (\(g.id))",
                    "longitude \(q.x), latitude \(q.y) out of range: longitude −180…180, latitude −90…90 (swapped?)")
            }
            var enabled = g.enabled
            if enabled {
                if let other = byPixel[p] ?? byGround[q] {
                    duplicates.append((g.id, other))
                    enabled = false
                } else {
                    byPixel[p] = g.id
                    byGround[q] = g.id
                }
            }
            gcps.append(GCP(id: g.id, pixel: p, ground: q, enabled: enabled))
        }
        var mask: [PixelPoint]?
        if let m = session.mask, !m.isEmpty {
            guard m.count >= 3 else {
                throw EditorError(.badMask, at: "mask", "a mask needs at least 3 vertices, got \(m.count); delete it or add more")
            }
            // A vertex may lie outside the scan (a mask drawn past its edge), but within one scan
            // size of it: one 10^12 px away made the fit's footprint extrapolate to 10^16 m (find 7).
            let w = Double(width), h = Double(height)
            mask = try m.enumerated().map { i, v -> PixelPoint in
                guard v.x.isFinite, v.y.isFinite else { throw EditorError.notAPoint(.badMask, at: "mask[\(i)]", "[x, y]") }
                guard (-w...2 * w).contains(v.x), (-h...2 * h).contains(v.y) else {
                    throw EditorError(
                        .badMask, at: "mask[\(i)]",
                        "(\(v.x), \(v.y)) is more than a scan size outside the \(width) × \(height) "
                            + "scan: x must be \(-width)…\(2 * width), y \(-height)…\(2 * height)")
                }
                return v
            }
        }
        self.mask = mask
        self.duplicates = duplicates
        set = GCPSet(gcps: gcps, crs: crs, mask: mask, source: "session")
    }
}
