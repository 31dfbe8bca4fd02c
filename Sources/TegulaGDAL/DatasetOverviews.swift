import CGDAL

/// What a raster is made of on disk: its overviews (reduced copies inside the file, or implicit
/// ones such as JPEG's DCT scaling, which GDAL reads from when a window goes into a smaller
/// buffer) and its files (a VRT and the scans it references, sidecar masks, world files).
extension Dataset {
    /// How many overview levels band 1 has (GDALGetOverviewCount); 0 when none or no band.
    public var overviewCount: Int {
        guard let band = GDALGetRasterBand(handle, 1) else { return 0 }
        return Int(GDALGetOverviewCount(band))
    }

    /// The files GDAL reads for this dataset (GDALGetFileList), the main file first.
    public var fileList: [String] {
        guard let list = GDALGetFileList(handle) else { return [path] }
        defer { CSLDestroy(list) }
        var out: [String] = []
        var i = 0
        while let p = list[i] {
            out.append(String(cString: p))
            i += 1
        }
        return out.isEmpty ? [path] : out
    }
}
