import TegulaGDAL
import TegulaGeometry

/// A scan's mapping with its output positions in another CRS than EPSG:3857: a tile matrix set's
/// (EPSG:27700, CRS84, a UTM zone), so that the scan is warped straight into that grid from its fit.
///
/// A GCP fit or a geotransform is reached in one PROJ transformation from `crs` to its own CRS
/// (none when they are the same), as the Web Mercator path reaches it from EPSG:3857; any other
/// mapping through EPSG:3857. Axes in the traditional GIS order (x the easting or longitude,
/// ``GridPoint``'s order) whatever the authority's. Each evaluator owns its PROJ handles (one per
/// thread, as ``SourceMapping`` asks), and the ``MappingGrid`` refines its nodes as for Web
/// Mercator, so a pixel costs what it costs there.
public struct ReprojectedMapping: SourceMapping {
    /// The mapping from EPSG:3857 that this one retargets.
    public let base: SourceMapping
    /// The CRS of the output positions.
    public let crs: CRS

    /// `base` with its output positions in `crs`; throws when PROJ has no transformation.
    public init(_ base: SourceMapping, crs: CRS) throws {
        self.base = base
        self.crs = crs
        _ = try makeEvaluator()
    }

    /// The scan's width in pixels.
    public var sourceWidth: Int { base.sourceWidth }
    /// The scan's height in pixels.
    public var sourceHeight: Int { base.sourceHeight }
    /// The base mapping's mask, in scan pixels.
    public var mask: [(x: Double, y: Double)]? { base.mask }

    /// An evaluator for one thread: straight to the fit's or raster's CRS when the base is a GCP
    /// fit or a geotransform, else through EPSG:3857.
    public func makeEvaluator() throws -> MappingEvaluator {
        switch base {
        case let m as GCPMapping: return try m.makeEvaluator(output: crs)
        case let m as GeoTransformMapping: return try m.makeEvaluator(output: crs)
        default: return try ThroughMercator(base: base.makeEvaluator(), crs: crs)
        }
    }

    /// Positions in `crs` taken to EPSG:3857 by PROJ and handed to the base's evaluator.
    final class ThroughMercator: MappingEvaluator {
        let base: MappingEvaluator
        let toMercator: CoordinateTransformation
        let fromMercator: CoordinateTransformation

        init(base: MappingEvaluator, crs: CRS) throws {
            self.base = base
            toMercator = try CoordinateTransformation(from: crs, to: .webMercator)
            fromMercator = try CoordinateTransformation(from: .webMercator, to: crs)
        }

        func sourcePixels(x: inout [Double], y: inout [Double]) {
            toMercator.transform(x: &x, y: &y)
            for i in x.indices where !x[i].isFinite || !y[i].isFinite { x[i] = .nan; y[i] = .nan }
            base.sourcePixels(x: &x, y: &y)
        }

        func projected(x: inout [Double], y: inout [Double]) {
            base.projected(x: &x, y: &y)
            fromMercator.transform(x: &x, y: &y)
            for i in x.indices where !x[i].isFinite || !y[i].isFinite { x[i] = .nan; y[i] = .nan }
        }
    }
}
