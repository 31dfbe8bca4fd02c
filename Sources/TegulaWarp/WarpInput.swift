import Foundation
import TegulaGDAL
import TegulaGeoreference

/// What the user named as input to warp or tile: a raster and, optionally, how to georeference
/// it. ``resolve()`` turns it into a ``WarpSource``.
public struct WarpInput: Sendable, Hashable {
    /// The raster to warp.
    public var path: String
    /// A GCP file (.points, .vrt, .csv, Allmaps .json); ignored when ``gcpSet`` is given.
    public var gcps: String?
    /// Transform name (see `TransformKind(name:)`); nil = the file's hint, else chosen by rule.
    public var transform: String?
    /// CRS of the GCP coordinates when the file does not say.
    public var gcpSRS: String?
    /// Fitting CRS: nil = the file's `TEGULA_FIT_SRS`, else EPSG:3857; `gcp` = the GCPs' own CRS.
    public var fitSRS: String?
    /// Mask polygon file in scan pixels; overrides a mask carried by the GCPs.
    public var mask: String?
    /// Inline GCPs (e.g. from a pipeline file); used instead of reading ``gcps`` when set.
    public var gcpSet: GCPSet?

    /// An input from its parts; everything but the path is optional.
    public init(path: String, gcps: String? = nil, transform: String? = nil, gcpSRS: String? = nil,
                fitSRS: String? = nil, mask: String? = nil, gcpSet: GCPSet? = nil) {
        self.path = path
        self.gcps = gcps
        self.transform = transform
        self.gcpSRS = gcpSRS
        self.fitSRS = fitSRS
        self.mask = mask
        self.gcpSet = gcpSet
    }

    /// Open the raster and build its mapping: inline GCPs, a GCP file, or GCPs stored in the
    /// raster (a `tegula georef` output: its transform and fit CRS are reused) first; else its
    /// geotransform and CRS.
    public func resolve() throws -> WarpSource {
        let ds = try Dataset(path: path)
        try ds.verifyReadable()
        if let fitted = try fit(ds) {
            let mapping = try GCPMapping(width: ds.width, height: ds.height, georeference: fitted,
                                         mask: fitted.gcps.mask.map { $0.map { (x: $0.x, y: $0.y) } })
            return try WarpSource(path: path, mapping: mapping)
        }
        guard let gt = ds.geoTransform, let srs = ds.spatialReference else {
            throw WarpError("\(path): no georeference (no geotransform with a CRS, no GCPs): give --gcps FILE")
        }
        let maskRing = try mask.map { try MaskReader.read(path: $0) }
        let mapping = try GeoTransformMapping(width: ds.width, height: ds.height, geoTransform: gt, srs: srs.wkt,
                                              mask: maskRing?.map { (x: $0.x, y: $0.y) })
        return try WarpSource(path: path, mapping: mapping)
    }

    /// Fit the GCPs (inline, from the GCP file, or stored in the raster) for this raster; nil
    /// when there are none. What `tegula georef` fits, and what ``resolve()`` warps with.
    public func georeference() throws -> Georeference? {
        let ds = try Dataset(path: path)
        try ds.verifyReadable()
        return try fit(ds)
    }

    func fit(_ ds: Dataset) throws -> Georeference? {
        guard let (found, stored) = try gcpSource(ds) else { return nil }
        var set = found
        if let mask { set.mask = try MaskReader.read(path: mask) }
        var kind: TransformKind?
        if let transform {
            guard let k = TransformKind(name: transform) else {
                throw GeoreferenceError(.unknownTransform, "unknown transform '\(transform)': expected \(TransformKind.accepted)")
            }
            kind = k
        }
        let options = FitOptions(transform: kind, fitSRS: fitSRS ?? stored["TEGULA_FIT_SRS"])
        return try Georeferencer.fit(set, imageWidth: ds.width, imageHeight: ds.height, options: options)
    }

    /// The GCPs to use and the metadata of the raster they were stored in (empty for other
    /// formats), or nil when there are none.
    func gcpSource(_ ds: Dataset) throws -> (GCPSet, [String: String])? {
        if var set = gcpSet {
            if let gcpSRS { set.srs = gcpSRS }
            return (set, [:])
        }
        if let gcps {
            let set = try GCPReader.read(path: gcps, gcpSRS: gcpSRS)
            let ext = (gcps as NSString).pathExtension.lowercased()
            let stored = ["vrt", "tif", "tiff"].contains(ext) ? ((try? Dataset(path: gcps))?.metadata() ?? [:]) : [:]
            return (set, stored)
        }
        if !ds.gcps.isEmpty {
            return (try GCPReader.readDataset(path: path, gcpSRS: gcpSRS), ds.metadata())
        }
        return nil
    }
}
