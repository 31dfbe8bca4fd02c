import Foundation
import TegulaGDAL
import TegulaGeoreference

/// A session parsed into typed values for one scan: the GCP set to fit (duplicates left out, and
/// named), the transform (nil: automatic), the mask. Every field is checked here, once, and a bad
/// one is refused with its place (`gcps[2].ground`) and the GCP's id.
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
        let crs: CRS
        do { crs = try CRS(session.gcpSRS) } catch {
            throw EditorError(.badCRS, at: "gcp_srs", "unknown CRS '\(session.gcpSRS.prefix(80))': expected e.g. EPSG:4326 or EPSG:28992")
        }
        if session.transform == EditorSession.auto {
            transform = nil
        } else if let k = TransformKind(name: session.transform) {
            transform = k
        } else {
            throw EditorError(.badTransform, at: "transform", "unknown transform '\(session.transform)': expected auto, \(TransformKind.names.joined(separator: ", "))")
        }
        var gcps: [GCP] = []
        var ids: Set<String> = []
        var byPixel: [PixelPoint: String] = [:], byGround: [GroundPoint: String] = [:]
        var duplicates: [(id: String, of: String)] = []
        for (i, g) in session.gcps.enumerated() {
            let place = "gcps[\(i)]"
            guard !g.id.isEmpty, ids.insert(g.id).inserted else {
                throw EditorError(.badSession, at: "\(place).id", "id '\(g.id)' is empty or used twice; every point needs its own id")
            }
            guard g.pixel.count == 2, g.pixel.allSatisfy(\.isFinite) else {
                throw EditorError(.pixelOutsideScan, at: "\(place).pixel (\(g.id))", "must be [x, y], two finite numbers")
            }
            let p = PixelPoint(x: g.pixel[0], y: g.pixel[1])
            guard (0...Double(width)).contains(p.x), (0...Double(height)).contains(p.y) else {
                throw EditorError(.pixelOutsideScan, at: "\(place).pixel (\(g.id))",
                                  "(\(p.x), \(p.y)) is outside the \(width) × \(height) scan: x must be 0…\(width), y 0…\(height)")
            }
            guard g.ground.count == 2, g.ground.allSatisfy(\.isFinite) else {
                throw EditorError(.invalidGround, at: "\(place).ground (\(g.id))", "must be [x, y] (lon, lat), two finite numbers")
            }
            let q = GroundPoint(x: g.ground[0], y: g.ground[1])
            if crs.isGeographic, abs(q.y) > 90 || abs(q.x) > 180 {
                throw EditorError(.invalidGround, at: "\(place).ground (\(g.id))",
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
            guard m.count >= 3 else { throw EditorError(.badMask, at: "mask", "a mask needs at least 3 vertices, got \(m.count); delete it or add more") }
            // A vertex may lie outside the scan (a mask drawn past its edge), but within one scan
            // size of it: one 10^12 px away made the fit's footprint extrapolate to 10^16 m (find 7).
            let w = Double(width), h = Double(height)
            mask = try m.enumerated().map { i, v -> PixelPoint in
                guard v.count == 2, v.allSatisfy(\.isFinite) else {
                    throw EditorError(.badMask, at: "mask[\(i)]", "must be [x, y], two finite numbers")
                }
                guard (-w...2 * w).contains(v[0]), (-h...2 * h).contains(v[1]) else {
                    throw EditorError(.badMask, at: "mask[\(i)]", "(\(v[0]), \(v[1])) is more than a scan size outside the \(width) × \(height) "
                                      + "scan: x must be \(-width)…\(2 * width), y \(-height)…\(2 * height)")
                }
                return PixelPoint(x: v[0], y: v[1])
            }
        }
        self.mask = mask
        self.duplicates = duplicates
        set = GCPSet(gcps: gcps, crs: crs, mask: mask, source: "session")
    }
}
