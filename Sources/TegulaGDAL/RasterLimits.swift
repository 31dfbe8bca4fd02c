import CGDAL

/// What Tegula takes from a raster's header before it allocates or reads anything: a band count
/// and, where a raster is held in memory or copied whole, a size. Each refusal is one line
/// naming the file, what it claims and what would be right. Warping and tiling need no size
/// limit: they read windows as the output needs them (a VRT claiming 10⁶ × 10⁶ px warps at zoom
/// 10 in 152 MB peak RSS, RELIABILITY.md).
public enum RasterLimits {
    /// Bands in a scan: 64. A scan is grey or RGB, with alpha or a few extra bands; Tegula reads
    /// at most four, and a file claiming thousands is a data cube, not a scan.
    public static let maximumBands = 64
    /// Bytes of one raster held in memory at once: 2^30 (1 GiB), e.g. the editor's scan as RGB
    /// plus its halvings (4 bytes per pixel: 2^28 px, 16,384²), a mask raster (1 byte per pixel).
    public static let maximumHeldBytes = 1 << 30
    /// Bytes of a raster copied pixel for pixel (`tegula georef -o OUT.tif`): 2^34 (16 GiB
    /// before compression, e.g. a 75,000² RGB scan); a VRT references the scan instead.
    public static let maximumCopiedBytes = 1 << 34

    /// Pixels of a scan served on demand: 2^34 (e.g. 131,072²). Its reduced copies for the lower
    /// zooms read every pixel once when it is served (seconds for the 43,200² benchmark scan,
    /// BENCHMARKS.md, "Figures behind the code"); a VRT claiming 10⁶ × 10⁶ px would read for hours before its first z4 tile.
    public static let maximumOnDemandPixels = 1 << 34

    /// Refuses serving on demand a raster of more than ``maximumOnDemandPixels`` pixels.
    public static func checkOnDemand(_ ds: Dataset) throws {
        let (px, overflow) = ds.width.multipliedReportingOverflow(by: ds.height)
        guard overflow || px > maximumOnDemandPixels else { return }
        throw GDALError(
            call: "GDALGetRasterXSize", path: ds.path,
            message:
                "\(ds.width) × \(ds.height) px is past the 2^34 pixels served on demand; cut it with `tegula tile` and serve the tileset")
    }

    /// Refuses more than ``maximumBands`` bands.
    public static func checkBands(_ ds: Dataset) throws {
        guard ds.bandCount <= maximumBands else {
            throw GDALError(
                call: "GDALGetRasterCount", path: ds.path,
                message:
                    "\(ds.bandCount) bands, past the \(maximumBands) a scan may have; keep its colour bands (gdal_translate -b 1 -b 2 -b 3)")
        }
    }

    /// Refuses a raster whose `bytesPerPixel` × width × height, held in memory `for` a purpose
    /// ("the editor"), would pass ``maximumHeldBytes``; `instead` says what would be right.
    public static func checkHeld(_ ds: Dataset, bytesPerPixel: Int, for purpose: String, instead: String) throws {
        let (bytes, overflow) = ds.width.multipliedReportingOverflow(by: ds.height)
        let (total, overflow2) = bytes.multipliedReportingOverflow(by: bytesPerPixel)
        guard overflow || overflow2 || total > maximumHeldBytes else { return }
        throw GDALError(
            call: "GDALGetRasterXSize", path: ds.path,
            message:
                "\(ds.width) × \(ds.height) px would take \(gibibytes(overflow || overflow2 ? Int.max : total)) in memory for \(purpose), past its \(gibibytes(maximumHeldBytes)); \(instead)"
        )
    }

    /// Refuses copying a raster whose pixels (all bands, at their sample size) pass
    /// ``maximumCopiedBytes``; `instead` says what would be right.
    public static func checkCopied(_ ds: Dataset, instead: String) throws {
        var bytes = 0, overflow = false
        for b in ds.bands {
            let size = Int(GDALGetDataTypeSizeBytes(GDALGetDataTypeByName(b.dataType)))
            let (px, o1) = ds.width.multipliedReportingOverflow(by: ds.height)
            let (band, o2) = px.multipliedReportingOverflow(by: max(1, size))
            let (sum, o3) = bytes.addingReportingOverflow(band)
            bytes = sum
            overflow = overflow || o1 || o2 || o3
        }
        guard overflow || bytes > maximumCopiedBytes else { return }
        throw GDALError(
            call: "GDALGetRasterXSize", path: ds.path,
            message:
                "\(ds.width) × \(ds.height) px × \(ds.bandCount) bands would copy \(gibibytes(overflow ? Int.max : bytes)), past the \(gibibytes(maximumCopiedBytes)) a copy may take; \(instead)"
        )
    }

    static func gibibytes(_ n: Int) -> String {
        n == Int.max ? "more than 2^63 bytes" : n >= 1 << 30 ? "\(n >> 30) GiB" : "\(n >> 20) MiB"
    }
}
