import TegulaGeometry

/// How output positions (EPSG:3857 metres) map to source pixels and back.
///
/// A mapping is a description that can be shared; each worker makes its own ``MappingEvaluator``
/// because PROJ transformation handles must not be shared between threads.
public protocol SourceMapping: Sendable {
    /// Source raster width and height in pixels.
    var sourceWidth: Int { get }
    var sourceHeight: Int { get }
    /// The neatline polygon in source pixels, if any.
    var mask: [(x: Double, y: Double)]? { get }
    /// Make an evaluator for one thread.
    func makeEvaluator() throws -> MappingEvaluator
}

/// Per-thread evaluation of a ``SourceMapping``.
public protocol MappingEvaluator {
    /// EPSG:3857 metres to source pixel coordinates (GDAL convention), in place; points that
    /// cannot be mapped become NaN.
    func sourcePixels(x: inout [Double], y: inout [Double])
    /// Source pixel coordinates to EPSG:3857 metres, in place; failures become NaN.
    func projected(x: inout [Double], y: inout [Double])
}

extension MappingEvaluator {
    /// The footprint of the source (its mask, else its border) in EPSG:3857, densified so
    /// curved edges are followed; NaN points dropped.
    func footprint(of mapping: SourceMapping, stepsPerEdge: Int = 64) -> [ProjectedPoint] {
        let ring: [(x: Double, y: Double)]
        if let m = mapping.mask, m.count >= 3 {
            ring = m
        } else {
            let w = Double(mapping.sourceWidth), h = Double(mapping.sourceHeight)
            ring = [(0, 0), (w, 0), (w, h), (0, h)]
        }
        let points = EdgeDensifier.densify(ring, steps: stepsPerEdge)
        var xs = points.map(\.x), ys = points.map(\.y)
        projected(x: &xs, y: &ys)
        return zip(xs, ys).compactMap { $0.isFinite && $1.isFinite ? ProjectedPoint(x: $0, y: $1) : nil }
    }
}
