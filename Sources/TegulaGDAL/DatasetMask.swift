import CGDAL

/// Per-dataset mask bands: where a raster is valid, as GDAL and QGIS read it.
extension Dataset {
    /// Create a per-dataset mask band (GDALCreateDatasetMaskBand with GMF_PER_DATASET; internal
    /// to a GeoTIFF) and fill it with `mask`, one byte per pixel, row-major: 255 = valid, 0 = not.
    public func writeDatasetMask(_ mask: [UInt8]) throws {
        precondition(mask.count == width * height)
        CPLErrorReset()
        GDALRuntime.setConfigOption("GDAL_TIFF_INTERNAL_MASK", "YES")
        if GDALCreateDatasetMaskBand(handle, Int32(GMF_PER_DATASET)) != CE_None {
            throw GDALError.last("GDALCreateDatasetMaskBand", path: path, fallback: "cannot create a mask band")
        }
        guard let band = GDALGetRasterBand(handle, 1), let m = GDALGetMaskBand(band) else {
            throw GDALError(call: "GDALGetMaskBand", path: path, message: "no mask band after creating one")
        }
        var buffer = mask
        let err = buffer.withUnsafeMutableBytes { p in
            GDALRasterIO(
                m, GF_Write, 0, 0, Int32(width), Int32(height), p.baseAddress,
                Int32(width), Int32(height), GDT_Byte, 0, 0)
        }
        if err != CE_None { throw GDALError.last("GDALRasterIO", path: path, fallback: "cannot write the mask") }
    }

    /// The flags of band 1's mask (GDALGetMaskFlags): e.g. `GMF_PER_DATASET` = 2, `GMF_ALL_VALID` = 1.
    public var maskFlags: Int {
        guard let band = GDALGetRasterBand(handle, 1) else { return 0 }
        return Int(GDALGetMaskFlags(band))
    }
}
