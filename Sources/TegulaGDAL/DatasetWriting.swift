import CGDAL

/// Creating and writing rasters.
extension Dataset {
    /// Create a new 8-bit raster with a driver that supports `GDALCreate` (GTiff, MEM, …).
    public static func create(
        path: String, driver: String, width: Int, height: Int, bands: Int,
        options: [String] = []
    ) throws -> Dataset {
        GDALRuntime.initialize()
        CPLErrorReset()
        guard let d = GDALGetDriverByName(driver) else {
            throw GDALError(call: "GDALGetDriverByName", path: path, message: "GDAL has no \(driver) driver")
        }
        let h = GDALRuntime.withStringList(options) { opts in
            GDALCreate(d, path, Int32(width), Int32(height), Int32(bands), GDT_Byte, opts)
        }
        guard let h else { throw GDALError.last("GDALCreate", path: path, fallback: "cannot create") }
        return Dataset(handle: h, path: path)
    }

    /// Copy this dataset to a new file with another driver (GDALCreateCopy), e.g. a COG or JPEG.
    public func copy(to path: String, driver: String, options: [String] = []) throws {
        CPLErrorReset()
        guard let d = GDALGetDriverByName(driver) else {
            throw GDALError(call: "GDALGetDriverByName", path: path, message: "GDAL has no \(driver) driver")
        }
        let out = GDALRuntime.withStringList(options) { opts in
            GDALCreateCopy(d, path, handle, 0, opts, nil, nil)
        }
        guard let out else { throw GDALError.last("GDALCreateCopy", path: path, fallback: "cannot write") }
        GDALClose(out)
        try GDALError.checkLast("GDALCreateCopy", path: path, warningsFail: false)
    }

    /// Write pixel-interleaved 8-bit samples into a window of the given bands.
    public func writeBytes(
        x: Int, y: Int, width: Int, height: Int, bands: [Int],
        from buffer: UnsafePointer<UInt8>
    ) throws {
        var map = bands.map { Int32($0) }
        let n = bands.count
        CPLErrorReset()
        let err = GDALDatasetRasterIO(
            handle, GF_Write, Int32(x), Int32(y), Int32(width), Int32(height),
            UnsafeMutableRawPointer(mutating: buffer), Int32(width), Int32(height),
            GDT_Byte, Int32(n), &map, Int32(n), Int32(width * n), 1)
        if err != CE_None { throw GDALError.last("GDALDatasetRasterIO", path: path, fallback: "write failed") }
    }

    /// Set the affine geotransform.
    public func setGeoTransform(_ t: GeoTransform) throws {
        var c = t.coefficients
        if GDALSetGeoTransform(handle, &c) != CE_None {
            throw GDALError.last("GDALSetGeoTransform", path: path, fallback: "cannot set geotransform")
        }
    }

    /// Set the raster's CRS.
    public func setSpatialReference(_ srs: SpatialReference) throws {
        if GDALSetSpatialRef(handle, srs.handle) != CE_None {
            throw GDALError.last("GDALSetSpatialRef", path: path, fallback: "cannot set CRS")
        }
    }

    /// Store ground control points with their CRS (GDALSetGCPs2).
    public func setGCPs(_ gcps: [GCPRecord], srs: SpatialReference) throws {
        let ids = gcps.map { strdup($0.id) }
        let infos = gcps.map { strdup($0.info) }
        defer { (ids + infos).forEach { free($0) } }
        var list = gcps.enumerated().map { i, g in
            GDAL_GCP(
                pszId: ids[i], pszInfo: infos[i], dfGCPPixel: g.pixel, dfGCPLine: g.line,
                dfGCPX: g.x, dfGCPY: g.y, dfGCPZ: g.z)
        }
        if GDALSetGCPs2(handle, Int32(list.count), &list, srs.handle) != CE_None {
            throw GDALError.last("GDALSetGCPs2", path: path, fallback: "cannot set GCPs")
        }
    }

    /// Set one metadata item in a domain (nil = default).
    public func setMetadataItem(_ key: String, _ value: String, domain: String? = nil) throws {
        if GDALSetMetadataItem(handle, key, value, domain) != CE_None {
            throw GDALError.last("GDALSetMetadataItem", path: path, fallback: "cannot set metadata")
        }
    }

    /// Mark a band's colour interpretation (e.g. alpha for the last band of RGBA).
    public func setColorInterpretation(band: Int, _ interpretation: ColorInterpretation) {
        if let b = GDALGetRasterBand(handle, Int32(band)) {
            GDALSetRasterColorInterpretation(b, interpretation.gdalValue)
        }
    }

    /// Build internal overviews by averaging (GDALBuildOverviews).
    public func buildOverviews(factors: [Int], resampling: String = "AVERAGE") throws {
        guard !factors.isEmpty else { return }
        var f = factors.map { Int32($0) }
        CPLErrorReset()
        if GDALBuildOverviews(handle, resampling, Int32(f.count), &f, 0, nil, nil, nil) != CE_None {
            throw GDALError.last("GDALBuildOverviews", path: path, fallback: "cannot build overviews")
        }
    }

    /// Flush pending writes to disk (GDALFlushCache).
    public func flush() throws {
        CPLErrorReset()
        GDALFlushCache(handle)
        try GDALError.checkLast("GDALFlushCache", path: path, warningsFail: false)
    }

    /// Encode an 8-bit image (1–4 bands, pixel-interleaved) with a GDAL driver into memory,
    /// e.g. "JPEG" or "WEBP" tiles, via /vsimem/.
    public static func encode(
        pixels: UnsafePointer<UInt8>, width: Int, height: Int, bands: Int,
        driver: String, options: [String]
    ) throws -> [UInt8] {
        GDALRuntime.initialize()
        let memPath = "/vsimem/tegula-\(UInt64.random(in: 0...UInt64.max)).img"
        let mem = try create(path: "", driver: "MEM", width: width, height: height, bands: bands)
        try mem.writeBytes(x: 0, y: 0, width: width, height: height, bands: Array(1...bands), from: pixels)
        if bands == 4 || bands == 2 { mem.setColorInterpretation(band: bands, .alpha) }
        try mem.copy(to: memPath, driver: driver, options: options)
        guard let bytes = GDALRuntime.takeMemoryFile(memPath) else {
            throw GDALError(call: "VSIGetMemFileBuffer", path: memPath, message: "\(driver) wrote nothing")
        }
        return bytes
    }
}

/// Band colour interpretations Tegula sets.
public enum ColorInterpretation: Sendable {
    case gray, red, green, blue, alpha

    var gdalValue: GDALColorInterp {
        switch self {
        case .gray: return GCI_GrayIndex
        case .red: return GCI_RedBand
        case .green: return GCI_GreenBand
        case .blue: return GCI_BlueBand
        case .alpha: return GCI_AlphaBand
        }
    }
}
