import TegulaGDAL
import TegulaGeometry

/// The mapping of a raster with an affine geotransform in any CRS, reprojected through PROJ.
public struct GeoTransformMapping: SourceMapping {
    public let sourceWidth: Int
    public let sourceHeight: Int
    public let geoTransform: GeoTransform
    /// The raster's CRS.
    public let crs: CRS
    public let mask: [(x: Double, y: Double)]?

    public init(width: Int, height: Int, geoTransform: GeoTransform, crs: CRS, mask: [(x: Double, y: Double)]? = nil) throws {
        guard geoTransform.inverse != nil else { throw WarpError(.badGeoreference, "the geotransform is not invertible") }
        sourceWidth = width
        sourceHeight = height
        self.geoTransform = geoTransform
        self.crs = crs
        self.mask = mask
    }

    public func makeEvaluator() throws -> MappingEvaluator {
        try Evaluator(mapping: self)
    }

    /// An evaluator whose output positions are in `output` instead of EPSG:3857: one PROJ
    /// transformation between it and the raster's CRS, none when they are the same
    /// (``ReprojectedMapping``).
    func makeEvaluator(output: CRS) throws -> MappingEvaluator {
        try Evaluator(mapping: self, output: output)
    }

    final class Evaluator: MappingEvaluator {
        let forwardGT: GeoTransform
        let inverseGT: GeoTransform
        let toSource: CoordinateTransformation?
        let toMercator: CoordinateTransformation?

        /// `output`: the CRS of the positions it takes and gives (EPSG:3857 for the tile grid).
        init(mapping m: GeoTransformMapping, output: CRS = .webMercator) throws {
            forwardGT = m.geoTransform
            inverseGT = m.geoTransform.inverse!
            if m.crs.isSame(as: output) {
                toSource = nil
                toMercator = nil
            } else {
                toSource = try CoordinateTransformation(from: output, to: m.crs)
                toMercator = try CoordinateTransformation(from: m.crs, to: output)
            }
        }

        func sourcePixels(x: inout [Double], y: inout [Double]) {
            if let toSource { toSource.transform(x: &x, y: &y) }
            for i in x.indices {
                if !x[i].isFinite || !y[i].isFinite { x[i] = .nan; y[i] = .nan; continue }
                let p = inverseGT.apply(pixel: x[i], line: y[i])
                x[i] = p.x
                y[i] = p.y
            }
        }

        func projected(x: inout [Double], y: inout [Double]) {
            for i in x.indices {
                let g = forwardGT.apply(pixel: x[i], line: y[i])
                x[i] = g.x
                y[i] = g.y
            }
            if let toMercator { toMercator.transform(x: &x, y: &y) }
            for i in x.indices where !x[i].isFinite || !y[i].isFinite { x[i] = .nan; y[i] = .nan }
        }
    }
}
