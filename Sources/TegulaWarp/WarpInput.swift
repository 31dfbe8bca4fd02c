import Foundation
import TegulaGDAL
import TegulaGeoreference

/// What the user named as input to warp or tile: a raster and, optionally, how to georeference
/// it. ``resolve()`` turns it into a ``WarpSource``.
public struct WarpInput: Sendable, Hashable {
    public var path: String
    public var gcps: String?
    public var transform: String?
    public var gcpSRS: String?
    public var fitSRS: String?
    public var mask: String?

    public init(path: String, gcps: String? = nil, transform: String? = nil, gcpSRS: String? = nil,
                fitSRS: String? = nil, mask: String? = nil) {
        self.path = path
        self.gcps = gcps
        self.transform = transform
        self.gcpSRS = gcpSRS
        self.fitSRS = fitSRS
        self.mask = mask
    }

    /// Open the raster and build its mapping: GCPs given or stored in the file first, else its
    /// geotransform and CRS.
    public func resolve() throws -> WarpSource {
        let ds = try Dataset(path: path)
        try ds.verifyReadable()
        if gcps != nil || !ds.gcps.isEmpty {
            throw WarpError("TEMPORARY: GCP inputs arrive with the georeference merge")
        }
        guard let gt = ds.geoTransform, let srs = ds.spatialReference else {
            throw WarpError("\(path): no georeference (no geotransform with a CRS, no GCPs): give --gcps FILE")
        }
        let maskRing = try mask.map { try MaskReader.read(path: $0).map { (x: $0.x, y: $0.y) } }
        let mapping = try GeoTransformMapping(width: ds.width, height: ds.height, geoTransform: gt, srs: srs.wkt, mask: maskRing)
        return try WarpSource(path: path, mapping: mapping)
    }
}
