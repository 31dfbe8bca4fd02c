import CGDAL

/// Overviews a raster carries (reduced copies inside the file, or implicit ones such as JPEG's
/// DCT scaling), which GDAL reads from when a window is read into a smaller buffer.
extension Dataset {
    /// How many overview levels band 1 has (GDALGetOverviewCount); 0 when none or no band.
    public var overviewCount: Int {
        guard let band = GDALGetRasterBand(handle, 1) else { return 0 }
        return Int(GDALGetOverviewCount(band))
    }
}
