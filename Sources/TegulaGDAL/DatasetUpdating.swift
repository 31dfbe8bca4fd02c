import CGDAL

/// Opening rasters for update, and the raw axis order of stored GCPs.
extension Dataset {
    /// Open an existing raster for update (GDALOpenEx with GDAL_OF_UPDATE), e.g. to add GCPs and
    /// metadata to a GeoTIFF just written by `copy(to:driver:options:)`.
    public convenience init(updating path: String) throws {
        GDALRuntime.initialize()
        CPLErrorReset()
        let flags = UInt32(GDAL_OF_RASTER) | UInt32(GDAL_OF_UPDATE) | UInt32(GDAL_OF_VERBOSE_ERROR)
        guard let h = GDALOpenEx(path, flags, nil, nil, nil) else {
            let err = GDALError.last("GDALOpenEx", path: path, fallback: "cannot open for update")
            throw GDALError(call: err.call, path: path, message: Dataset.shorten(err.message, path: path))
        }
        self.init(handle: h, path: path)
    }

    /// True when the stored GCPs' x is the CRS's easting/longitude (the data axis mapping of the
    /// GCP CRS is the traditional GIS one); false when a file (e.g. a VRT with
    /// `dataAxisToSRSAxisMapping="1,2"` on EPSG:4326) stores them in authority order, lat first.
    /// True when there is no GCP CRS.
    public var gcpsAreEastingFirst: Bool {
        guard let h = GDALGetGCPSpatialRef(handle) else { return true }
        var count: Int32 = 0
        guard let p = OSRGetDataAxisToSRSAxisMapping(h, &count), count >= 2 else { return true }
        let stored = (0..<Int(count)).map { Int(p[$0]) }
        let traditional = SpatialReference(cloning: h, definition: "").dataAxisToSRSAxisMapping
        return Array(stored.prefix(2)) == Array(traditional.prefix(2))
    }
}
