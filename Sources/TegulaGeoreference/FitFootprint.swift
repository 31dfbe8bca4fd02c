import Foundation
import TegulaGDAL
import TegulaGeometry

/// The outline of a fitted scan on the ground: its mask (else its border) through the fit, in
/// longitude and latitude, its edges refined where the fit bends them (``EdgeRefinement``, as
/// Allmaps refines a transformed polygon: offsets measured in longitude and latitude, as its
/// `transform resource-mask` does). The one footprint: the report holds it, the sheet index and
/// the tiles' metadata take it from the report, and `tegula georef --footprint` writes it.
public enum FitFootprint {
    /// The widest step in longitude between neighbouring points of a footprint (see
    /// ``EdgeRefinement/maxStepX``): a world map's top edge is then never one chord across the
    /// antimeridian's side of the world.
    static let maxLongitudeStep = 90.0

    /// The closed ring of `[lon, lat]` pairs; points the fit or PROJ cannot map are left out.
    static func ring(
        mask: [PixelPoint]?, width: Int, height: Int, transform: any PixelTransform,
        fitCRS: CRS, refinement: EdgeRefinement
    ) throws -> [[Double]] {
        let w = Double(width), h = Double(height)
        let outline =
            mask.flatMap { $0.count >= 3 ? $0 : nil }
            ?? [PixelPoint(x: 0, y: 0), PixelPoint(x: w, y: 0), PixelPoint(x: w, y: h), PixelPoint(x: 0, y: h)]
        let toLonLat = try CRSConversion(from: fitCRS, to: .wgs84)
        var refinement = refinement
        refinement.maxStepX = refinement.maxStepX ?? maxLongitudeStep
        let points = refinement.refine(outline.map { ($0.x, $0.y) }) { p in
            let g = transform.forward(PixelPoint(x: p.x, y: p.y))
            var x = [g.x], y = [g.y]
            toLonLat.apply(x: &x, y: &y)
            return (x[0], y[0])
        }
        var out = points.filter { $0.x.isFinite && $0.y.isFinite }.map { [$0.x, $0.y] }
        if let first = out.first { out.append(first) }
        return out
    }

    /// `ring` as a GeoJSON Feature with a Polygon geometry (RFC 7946: longitude, latitude, the
    /// ring counterclockwise), its properties naming the refinement.
    static func geoJSON(_ ring: [[Double]], refinement: EdgeRefinement) throws -> Data {
        let feature: [String: Any] = [
            "type": "Feature",
            "geometry": ["type": "Polygon", "coordinates": [counterclockwise(ring)]],
            "properties": ["max_depth": refinement.maxDepth, "min_offset_ratio": refinement.minOffsetRatio],
        ]
        return try JSONSerialization.data(withJSONObject: feature, options: [.sortedKeys, .withoutEscapingSlashes])
    }

    /// `ring` as RFC 7946 wants a polygon's exterior ring: counterclockwise (reversed when it
    /// turns the other way). A scan's border through a fit runs clockwise on the ground (top-left,
    /// top-right, bottom-right: pixel rows run south).
    public static func counterclockwise(_ ring: [[Double]]) -> [[Double]] {
        signedArea(ring) < 0 ? ring.reversed() : ring
    }

    /// The shoelace area of a closed ring in its own units, positive when counterclockwise.
    static func signedArea(_ ring: [[Double]]) -> Double {
        zip(ring, ring.dropFirst()).reduce(0) { $0 + ($1.0[0] * $1.1[1] - $1.1[0] * $1.0[1]) } / 2
    }
}
