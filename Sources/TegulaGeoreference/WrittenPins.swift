import Foundation
import TegulaGDAL
import TegulaGeometry

/// Which points a raster written by ``GeoreferenceWriter`` carries as its GCPs.
///
/// GDAL reads a raster with GCPs through its own transformer (an order-1 polynomial, GDAL's
/// `GDALCreateGCPTransformer`, unless told otherwise), not through `TEGULA_TRANSFORM`; for a
/// helmert fit its affine least squares through the user's points is another fit, and through
/// points on one line (a sheet tied along one edge) no fit at all.
public enum WrittenPins: Sendable, Hashable {
    /// The enabled GCPs as given: the file is the record of the user's points (`tegula georef`).
    case gcps
    /// For a fit that is affine in its fit CRS (helmert, straight, polynomial1): the scan's four
    /// corners and centre mapped by the fit, in the fit CRS, so that GDAL's order-1 least squares,
    /// exact through exactly-affine points, reproduces the fit, and Tegula's own refit of them
    /// does too; any other fit: its enabled GCPs. The user's points are then recorded elsewhere
    /// (the report's GCPs, the GCP file).
    case fitWhereAffine

    /// The fit's transforms that are affine maps from pixels to the fit CRS.
    public static let affineKinds: Set<TransformKind> = [.helmert, .straight, .polynomial1]

    /// The points to write for `georeference`, and their CRS.
    public func points(for georeference: Georeference) -> (gcps: [GCP], crs: CRS) {
        let g = georeference
        guard self == .fitWhereAffine, Self.affineKinds.contains(g.kind) else { return (g.gcps.enabled, g.gcps.crs) }
        let (w, h) = (Double(g.imageWidth), Double(g.imageHeight))
        let corners: [(String, PixelPoint)] = [
            ("fit-top-left", PixelPoint(x: 0, y: 0)), ("fit-top-right", PixelPoint(x: w, y: 0)),
            ("fit-bottom-right", PixelPoint(x: w, y: h)), ("fit-bottom-left", PixelPoint(x: 0, y: h)),
            ("fit-centre", PixelPoint(x: w / 2, y: h / 2)),
        ]
        return (corners.map { GCP(id: $0.0, pixel: $0.1, ground: g.transform.forward($0.1)) }, g.fitCRS)
    }
}
