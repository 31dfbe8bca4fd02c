import Foundation
import TegulaGDAL
import TegulaGeometry
import TegulaGeoreference
import TegulaScan
import TegulaSupport

/// What the user named as input to warp or tile: a raster and, optionally, how to georeference
/// it. ``resolve(readingPixels:opening:)`` turns it into a ``WarpSource``;
/// ``georeference(opening:)`` is the one path by which every command and pipeline stage fits GCPs.
/// Both take the program's ``ScanOpener`` (local files alone by default) for a path that is a URL.
public struct WarpInput: Sendable, Hashable {
    /// The raster to warp.
    public var path: String
    /// A GCP file (.points, .vrt, .csv, Allmaps .json); ignored when ``gcpSet`` is given.
    public var gcpFile: String?
    /// Inline GCPs (e.g. from a pipeline file); used instead of reading ``gcpFile`` when set.
    public var gcpSet: GCPSet?
    /// CRS of the GCP coordinates when the file does not say (or to override it).
    public var gcpCRS: CRS?
    /// Transform and fitting CRS; nil fields fall back to what the GCPs' file stored, then to
    /// the defaults.
    public var fit: FitOptions
    /// Mask polygon in scan pixels; replaces a mask carried by the GCPs.
    public var mask: [PixelPoint]?
    /// Which map of an Allmaps AnnotationPage holding several ``gcpFile`` georeferences.
    public var mapID: String?

    /// An input from its parts; everything but the path is optional.
    public init(
        path: String, gcpFile: String? = nil, gcpSet: GCPSet? = nil, gcpCRS: CRS? = nil,
        fit: FitOptions = FitOptions(), mask: [PixelPoint]? = nil
    ) {
        self.path = path
        self.gcpFile = gcpFile
        self.gcpSet = gcpSet
        self.gcpCRS = gcpCRS
        self.fit = fit
        self.mask = mask
    }

    /// Open the raster and build its mapping: the GCP fit when there are GCPs (inline, a file,
    /// or stored in the raster, as a `tegula georef` output), else its geotransform and CRS.
    ///
    /// - Parameter readingPixels: false to open only the raster's header: no check that its
    ///   pixels decode, none held in memory and no GCP pins (for a plan, which needs only the
    ///   footprint).
    /// - Parameter scans: opens the scan when ``path`` is a URL.
    public func resolve(readingPixels: Bool = true, opening scans: any ScanOpener = LocalScans()) throws -> WarpSource {
        if case .url(let url) = Location(path) { return try resolve(scans.remote(url), readingPixels: readingPixels) }
        let ds = try Dataset(path: path)
        try RasterLimits.checkBands(ds)
        if readingPixels { try ds.verifyReadable() }
        if let fitted = try fit(ds) {
            let mapping = try GCPMapping(
                width: ds.width, height: ds.height, georeference: fitted,
                mask: fitted.gcps.mask.map { $0.map { (x: $0.x, y: $0.y) } })
            // A plan needs neither the pins nor the pixels: the fit's report is then never made.
            return try WarpSource(
                path: path, mapping: mapping, summary: readingPixels ? GeoreferenceSummary(fitted) : nil,
                sharePixels: readingPixels)
        }
        guard let gt = ds.geoTransform, let srs = ds.spatialReference else {
            throw WarpError(.notGeoreferenced, at: path, "no georeference (no geotransform with a CRS, no GCPs): give --gcps FILE")
        }
        let mapping = try GeoTransformMapping(
            width: ds.width, height: ds.height, geoTransform: gt, crs: CRS(srs),
            mask: mask?.map { (x: $0.x, y: $0.y) })
        return try WarpSource(
            path: path, mapping: mapping,
            summary: try GeoreferenceSummary(metadata: ds.metadata(), source: path), sharePixels: readingPixels)
    }

    /// Fit the GCPs (inline, from the GCP file, or stored in the raster) for this raster; nil
    /// when there are none; `scans` opens the scan when ``path`` is a URL.
    public func georeference(opening scans: any ScanOpener = LocalScans()) throws -> Georeference? {
        if case .url(let url) = Location(path) { return try fit(scans.remote(url)) }
        let ds = try Dataset(path: path)
        try RasterLimits.checkBands(ds)
        try ds.verifyReadable()
        return try fit(ds)
    }

    func fit(_ ds: Dataset) throws -> Georeference? {
        guard var set = try gcps(ds) else { return nil }
        if let mask { set.mask = mask }
        return try Georeferencer.fit(set, imageWidth: ds.width, imageHeight: ds.height, options: fit)
    }

    /// The GCPs to use, with what their file stored (a `tegula georef` output's fit), or nil.
    func gcps(_ ds: Dataset) throws -> GCPSet? {
        if var set = gcpSet {
            if let gcpCRS { set.crs = gcpCRS }
            return set
        }
        if let gcpFile { return try GCPReader.read(path: gcpFile, gcpCRS: gcpCRS, mapID: mapID) }
        if !ds.gcps.isEmpty { return try GCPReader.readDataset(ds, path: path, gcpCRS: gcpCRS) }
        return nil
    }
}
