import CGDAL

/// A raster GDAL can read or write, owning its handle (closed in `deinit`).
///
/// A dataset may be handed to another thread but is never used by two at once: GDAL dataset
/// handles are not thread-safe. Open one per worker.
public final class Dataset {
    let handle: GDALDatasetH
    /// The path it was opened or created with.
    public let path: String

    /// Open a raster read-only (GDALOpenEx with GDAL_OF_RASTER).
    public init(path: String) throws {
        GDALRuntime.initialize()
        if let why = SpatialReference.refusal(vrtAt: path) {
            throw GDALError(call: "GDALOpenEx", path: path, message: why)
        }
        CPLErrorReset()
        let flags = UInt32(GDAL_OF_RASTER) | UInt32(GDAL_OF_READONLY) | UInt32(GDAL_OF_VERBOSE_ERROR)
        guard let h = GDALOpenEx(path, flags, nil, nil, nil) else {
            let err = GDALError.last("GDALOpenEx", path: path, fallback: "cannot open as a raster")
            throw GDALError(call: err.call, path: path, message: Dataset.shorten(err.message, path: path))
        }
        handle = h
        self.path = path
    }

    init(handle: GDALDatasetH, path: String) {
        self.handle = handle
        self.path = path
    }

    deinit { GDALClose(handle) }

    /// GDAL repeats the path in many messages; keep the message one short line.
    static func shorten(_ message: String, path: String) -> String {
        var m = message.replacingOccurrences(of: "`\(path)'", with: "file")
        m = m.replacingOccurrences(of: "\n", with: " ")
        if m.contains("No such file") { return "no such file" }
        if m.contains("not recognized as a supported file format") || m.contains("not recognised as") {
            return "not a raster format GDAL recognises (corrupt or unsupported file)"
        }
        return m
    }

    /// Width in pixels.
    public var width: Int { Int(GDALGetRasterXSize(handle)) }
    /// Height in pixels.
    public var height: Int { Int(GDALGetRasterYSize(handle)) }
    /// Number of bands.
    public var bandCount: Int { Int(GDALGetRasterCount(handle)) }

    /// The driver's short name, e.g. "GTiff", "JPEG", "VRT".
    public var driverName: String {
        guard let d = GDALGetDatasetDriver(handle) else { return "unknown" }
        return String(cString: GDALGetDriverShortName(d))
    }

    /// The six affine coefficients (GDALGetGeoTransform), or nil when the file has none.
    public var geoTransform: GeoTransform? {
        var gt = [Double](repeating: 0, count: 6)
        let err = GDALGetGeoTransform(handle, &gt)
        CPLErrorReset()
        guard err == CE_None else { return nil }
        let t = GeoTransform(gt)
        return t.isIdentity ? nil : t
    }

    /// The raster's CRS, or nil when it has none.
    public var spatialReference: SpatialReference? {
        guard let h = GDALGetSpatialRef(handle) else { return nil }
        let wkt = String(cString: GDALGetProjectionRef(handle))
        return SpatialReference(cloning: h, definition: wkt)
    }

    /// Ground control points stored in the file (GDALGetGCPs), in GDAL's pixel convention.
    public var gcps: [GCPRecord] {
        let n = Int(GDALGetGCPCount(handle))
        guard n > 0, let list = GDALGetGCPs(handle) else { return [] }
        return (0..<n).map { i in
            let g = list[i]
            return GCPRecord(
                id: g.pszId.map { String(cString: $0) } ?? "\(i + 1)",
                info: g.pszInfo.map { String(cString: $0) } ?? "",
                pixel: g.dfGCPPixel, line: g.dfGCPLine, x: g.dfGCPX, y: g.dfGCPY, z: g.dfGCPZ)
        }
    }

    /// The CRS of the GCPs, or nil.
    public var gcpSpatialReference: SpatialReference? {
        guard let h = GDALGetGCPSpatialRef(handle) else { return nil }
        return SpatialReference(cloning: h, definition: String(cString: GDALGetGCPProjection(handle)))
    }

    /// Per-band facts, band 1 first.
    public var bands: [BandInfo] {
        (1...max(bandCount, 1)).compactMap { i in
            guard i <= bandCount, let b = GDALGetRasterBand(handle, Int32(i)) else { return nil }
            var has: Int32 = 0
            let nodata = GDALGetRasterNoDataValue(b, &has)
            let type = GDALGetRasterDataType(b)
            let interp = GDALGetRasterColorInterpretation(b)
            var bx: Int32 = 0, by: Int32 = 0
            GDALGetBlockSize(b, &bx, &by)
            return BandInfo(
                index: i,
                dataType: String(cString: GDALGetDataTypeName(type)),
                colorInterpretation: String(cString: GDALGetColorInterpretationName(interp)),
                noData: has != 0 ? nodata : nil,
                blockWidth: Int(bx), blockHeight: Int(by),
                hasColorTable: GDALGetRasterColorTable(b) != nil,
                isByte: type == GDT_Byte, isAlpha: interp == GCI_AlphaBand)
        }
    }

    /// Metadata items of a domain (nil = the default domain) as key/value pairs.
    public func metadata(domain: String? = nil) -> [String: String] {
        guard let list = GDALGetMetadata(handle, domain) else { return [:] }
        var out: [String: String] = [:]
        var i = 0
        while let item = list[i] {
            let s = String(cString: item)
            if let eq = s.firstIndex(of: "=") {
                out[String(s[..<eq])] = String(s[s.index(after: eq)...])
            }
            i += 1
        }
        return out
    }

    /// Read a window of the given bands as 8-bit samples, pixel-interleaved
    /// (GDALDatasetRasterIOEx), scaled to `bufferWidth` × `bufferHeight` with `resampling`;
    /// `pixelSpacing` bytes from one pixel to the next in the buffer (default: the band count),
    /// e.g. 4 to read RGB straight into an RGBA buffer, its alpha bytes untouched.
    ///
    /// Any GDAL warning during the read is an error (e.g. a truncated JPEG).
    public func readBytes(
        x: Int, y: Int, width: Int, height: Int,
        bufferWidth: Int? = nil, bufferHeight: Int? = nil,
        bands: [Int], resampling: ReadResampling = .nearest, pixelSpacing: Int? = nil,
        into buffer: UnsafeMutablePointer<UInt8>
    ) throws {
        let bw = bufferWidth ?? width, bh = bufferHeight ?? height
        var map = bands.map { Int32($0) }
        var extra = GDALRasterIOExtraArg()
        tegula_init_rasterio_extra_arg(&extra)
        extra.eResampleAlg = resampling.gdalValue
        CPLErrorReset()
        let n = bands.count, spacing = pixelSpacing ?? n
        let err = GDALDatasetRasterIOEx(
            handle, GF_Read, Int32(x), Int32(y), Int32(width), Int32(height),
            buffer, Int32(bw), Int32(bh), GDT_Byte, Int32(n), &map,
            Int64(spacing), Int64(bw * spacing), 1, &extra)
        if err != CE_None {
            throw GDALError.last("GDALDatasetRasterIOEx", path: path, fallback: "read failed")
        }
        try GDALError.checkLast("GDALDatasetRasterIOEx", path: path, warningsFail: true)
    }

    /// Colour table entries of a band as RGBA, or nil when it has none.
    public func colorTable(band: Int) -> [(UInt8, UInt8, UInt8, UInt8)]? {
        guard let b = GDALGetRasterBand(handle, Int32(band)), let ct = GDALGetRasterColorTable(b) else { return nil }
        let n = Int(GDALGetColorEntryCount(ct))
        return (0..<n).map { i in
            let e = GDALGetColorEntry(ct, Int32(i))!.pointee
            return (UInt8(clamping: e.c1), UInt8(clamping: e.c2), UInt8(clamping: e.c3), UInt8(clamping: e.c4))
        }
    }
}

/// Facts about one band.
public struct BandInfo: Sendable, Equatable {
    public var index: Int
    public var dataType: String
    public var colorInterpretation: String
    public var noData: Double?
    public var blockWidth: Int
    public var blockHeight: Int
    public var hasColorTable: Bool
    /// True for 8-bit unsigned samples (GDT_Byte), the only type Tegula warps.
    public var isByte: Bool
    /// True when the band is an alpha band (GCI_AlphaBand).
    public var isAlpha: Bool
}

/// A ground control point as GDAL stores it: pixel/line in GDAL's convention, x/y/z in the
/// GCP CRS.
public struct GCPRecord: Sendable, Equatable {
    public var id: String
    public var info: String
    public var pixel: Double
    public var line: Double
    public var x: Double
    public var y: Double
    public var z: Double

    public init(id: String, info: String = "", pixel: Double, line: Double, x: Double, y: Double, z: Double = 0) {
        self.id = id
        self.info = info
        self.pixel = pixel
        self.line = line
        self.x = x
        self.y = y
        self.z = z
    }
}

/// Resampling for scaled reads (GDALRIOResampleAlg).
public enum ReadResampling: Sendable {
    case nearest, bilinear, cubic, average

    var gdalValue: GDALRIOResampleAlg {
        switch self {
        case .nearest: return GRIORA_NearestNeighbour
        case .bilinear: return GRIORA_Bilinear
        case .cubic: return GRIORA_Cubic
        case .average: return GRIORA_Average
        }
    }
}
