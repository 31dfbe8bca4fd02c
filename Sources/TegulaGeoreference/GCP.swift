import Foundation
import TegulaGDAL
import TegulaGeometry

/// One ground control point: a pixel on the scan and the ground position it shows.
public struct GCP: Sendable, Hashable, Codable {
    /// Identifier, unique within its set (the row number when the file gives none).
    public var id: String
    /// Pixel position, GDAL convention.
    public var pixel: PixelPoint
    /// Ground position in the set's CRS (x = easting/longitude).
    public var ground: GroundPoint
    /// False for points switched off in the file (QGIS `enable` = 0); they are reported, not fitted.
    public var enabled: Bool

    /// The id of a series' tie pin (``SeriesFit``), `tie-` and the tie's 1-based index (`tie-N+M`
    /// where ties share a pixel).
    public static func tiePinID(ties: [Int]) -> String { tiePinPrefix + ties.map { "\($0 + 1)" }.joined(separator: "+") }
    static let tiePinPrefix = "tie-"
    /// Whether `id` is a tie pin's (``tiePinID(ties:)``) rather than a GCP of the sheet's own.
    public static func isTiePin(_ id: String) -> Bool { id.hasPrefix(tiePinPrefix) }

    /// A GCP from its parts; enabled unless told otherwise.
    public init(id: String, pixel: PixelPoint, ground: GroundPoint, enabled: Bool = true) {
        self.id = id
        self.pixel = pixel
        self.ground = ground
        self.enabled = enabled
    }
}

/// A set of GCPs with their CRS and what the file said about masks and transforms.
public struct GCPSet: Sendable, Hashable {
    /// The points in file order.
    public var gcps: [GCP]
    /// The CRS of the ground coordinates.
    public var crs: CRS
    /// Neatline polygon in pixels, when the file carries one (Allmaps SVG selector).
    public var mask: [PixelPoint]?
    /// The transform the file asks for (Allmaps `transformation`, a stored fit), if any.
    public var transformHint: TransformKind?
    /// The fitting CRS the file asks for (a stored fit's), if any.
    public var fitCRSHint: FitCRS?
    /// File path, or "inline" for GCPs given in a pipeline file.
    public var source: String

    /// A set from its parts; `source` "inline" for GCPs not read from a file.
    public init(
        gcps: [GCP], crs: CRS, mask: [PixelPoint]? = nil,
        transformHint: TransformKind? = nil, fitCRSHint: FitCRS? = nil, source: String = "inline"
    ) {
        self.gcps = gcps
        self.crs = crs
        self.fitCRSHint = fitCRSHint
        self.mask = mask
        self.transformHint = transformHint
        self.source = source
    }

    /// The GCPs that take part in fits.
    public var enabled: [GCP] { gcps.filter(\.enabled) }

    /// The CRS a fit of these GCPs is made in (``fitCRSChoice(given:)``).
    public func fitCRS(given: FitCRS?) -> CRS {
        fitCRSChoice(given: given).crs
    }

    /// The CRS a fit of these GCPs is made in, and why: `given` (`--fit-srs`, `fit_srs:`), else
    /// the file's hint (a stored fit's, an Allmaps `resourceCrs`), else the GCPs' own CRS when it
    /// is projected (as QGIS, GDAL and Allmaps fit), else EPSG:3857 for GCPs in longitude and
    /// latitude (as Allmaps fits).
    public func fitCRSChoice(given: FitCRS?) -> (crs: CRS, reason: String) {
        if let given { return (given.resolved(gcpCRS: crs), "given (--fit-srs, fit_srs)") }
        if let fitCRSHint { return (fitCRSHint.resolved(gcpCRS: crs), "the GCP file's own (an Allmaps resourceCrs or a stored fit)") }
        if crs.isGeographic {
            return (.webMercator, "the default for GCPs in longitude and latitude, as Allmaps fits")
        }
        return (crs, "the GCPs' own CRS, which is projected, as QGIS, GDAL and Allmaps fit")
    }

    /// Check what can be checked without fitting: finite numbers, geographic ranges, pixels inside
    /// a `width` × `height` image, no two GCPs at the same pixel.
    public func validate(imageWidth: Int?, imageHeight: Int?, geographic: Bool) throws {
        var seen: [PixelPoint: String] = [:]
        for g in gcps {
            let place = "\(source): GCP \(g.id)"
            guard g.pixel.x.isFinite, g.pixel.y.isFinite, g.ground.x.isFinite, g.ground.y.isFinite else {
                throw GeoreferenceError(
                    .invalidCoordinate, at: place,
                    "coordinates must be finite numbers, got pixel \(g.pixel) ground \(g.ground)")
            }
            if geographic, abs(g.ground.y) > 90 || abs(g.ground.x) > 540 {
                throw GeoreferenceError(
                    .invalidCoordinate, at: place,
                    "longitude \(g.ground.x), latitude \(g.ground.y) out of range (latitude must be within ±90; are longitude and latitude swapped or the CRS wrong?)"
                )
            }
            if let w = imageWidth, let h = imageHeight,
                g.pixel.x < 0 || g.pixel.y < 0 || g.pixel.x > Double(w) || g.pixel.y > Double(h)
            {
                throw GeoreferenceError(
                    .gcpOutsideImage, at: place,
                    "pixel \(g.pixel) is outside the \(w) × \(h) image (x must be 0…\(w), y 0…\(h); QGIS .points store the row negated)")
            }
            guard g.enabled else { continue }
            if let other = seen[g.pixel] {
                throw GeoreferenceError(
                    .duplicateGCPs, at: place,
                    "same pixel \(g.pixel) as GCP \(other); remove or disable one of them")
            }
            seen[g.pixel] = g.id
        }
    }
}
