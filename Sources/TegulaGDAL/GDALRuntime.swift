import CGDAL
import Foundation

/// Process-wide GDAL set-up: drivers registered once, GDAL's printing to stderr silenced
/// (errors reach callers as `GDALError`s instead), libjpeg warnings made errors.
public enum GDALRuntime {
    private static let once: Void = {
        GDALAllRegister()
        tegula_install_quiet_error_handler()
        CPLSetConfigOption("GDAL_ERROR_ON_LIBJPEG_WARNING", "TRUE")
        CPLSetConfigOption("GDAL_PAM_ENABLED", "NO")
        CPLSetConfigOption("CPL_LOG", nil)
        // GDAL's block cache defaults to 5 % of RAM; Tegula reads windows it keeps itself, so a
        // small cache keeps memory flat whatever the input size.
        if getenv("GDAL_CACHEMAX") == nil { CPLSetConfigOption("GDAL_CACHEMAX", "64") }
        // An uncompressed GeoTIFF's window is read straight from the file, not through whole
        // strips in that cache: a scan in one-row strips (gdal_translate's default) was read many
        // times over by the pyramid's blocks, a tenth of each strip used each time. Same pixels,
        // less time and memory (BENCHMARKS.md, "Figures behind the code"). GDAL ignores it for compressed files and
        // resampled reads.
        if getenv("GTIFF_DIRECT_IO") == nil { CPLSetConfigOption("GTIFF_DIRECT_IO", "YES") }
    }()

    /// Register drivers and install the quiet error handler; cheap after the first call.
    public static func initialize() { _ = once }

    /// The GDAL release, e.g. "3.6.2".
    public static var version: String {
        initialize()
        return String(cString: GDALVersionInfo("RELEASE_NAME"))
    }

    /// Set a GDAL configuration option for the process.
    public static func setConfigOption(_ key: String, _ value: String?) {
        initialize()
        CPLSetConfigOption(key, value)
    }

    /// Set a GDAL configuration option for the calling thread only (it wins over the process's).
    public static func setThreadLocalConfigOption(_ key: String, _ value: String?) {
        initialize()
        CPLSetThreadLocalConfigOption(key, value)
    }

    /// A GDAL configuration option as GDAL sees it (set in the process or the environment), or nil.
    public static func configOption(_ key: String) -> String? {
        initialize()
        return CPLGetConfigOption(key, nil).map { String(cString: $0) }
    }

    /// Make a NULL-terminated C string list (CSL) for GDAL options; free with `CSLDestroy`.
    static func stringList(_ items: [String]) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
        var list: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = nil
        for item in items { list = CSLAddString(list, item) }
        return list
    }

    /// Run `body` with a CSL built from `items`, destroyed afterwards.
    static func withStringList<R>(
        _ items: [String],
        _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) throws -> R
    ) rethrows -> R {
        let list = stringList(items)
        defer { CSLDestroy(list) }
        return try body(list)
    }

    /// Read a file GDAL wrote under /vsimem/ and delete it.
    static func takeMemoryFile(_ path: String) -> [UInt8]? {
        var length: vsi_l_offset = 0
        guard let buffer = VSIGetMemFileBuffer(path, &length, 1) else { return nil }
        defer { VSIFree(buffer) }
        return Array(UnsafeBufferPointer(start: buffer, count: Int(length)))
    }
}
