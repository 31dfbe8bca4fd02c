import TegulaSupport

/// A scan's pixels read as RGBA windows at a reduction, wherever they live: a file through GDAL
/// (``SourceRaster``) or a remote image (an IIIF image service, TegulaIIIFSource). The warp, the
/// reduced copies and tiles on demand read through this alone, so a window read does not care
/// where its pixels come from.
///
/// One per worker thread (a GDAL dataset must not be shared; ``ScanSources/open(_:)`` makes one).
public protocol ScanReader: AnyObject {
    /// The scan's size in full-resolution pixels.
    var width: Int { get }
    var height: Int { get }
    /// True when every pixel reads as opaque.
    var isOpaque: Bool { get }
    /// True when a read at a reduction comes from reduced copies the source has (a file's
    /// overviews, an IIIF image's scale factors): ``SourceOverviews`` then builds none of its own.
    var hasOwnReductions: Bool { get }
    /// The window (`x`, `y`, `width` × `height` full-resolution pixels, inside the scan) as
    /// straight-alpha RGBA8 into `out` (`bufferWidth` × `bufferHeight` × 4), averaged when the
    /// buffer is smaller than the window.
    func readRGBA(x: Int, y: Int, width: Int, height: Int, bufferWidth: Int, bufferHeight: Int,
                  into out: UnsafeMutablePointer<UInt8>) throws
}

extension SourceRaster: ScanReader {
    /// A file with overviews: GDAL reads a reduced window from them.
    public var hasOwnReductions: Bool { dataset.overviewCount > 0 }
}

/// A scan that is not a local file, named by a URL: opened once per process, a reader made for
/// each worker.
public protocol RemoteScan: AnyObject, Sendable {
    /// The URL it was opened by.
    var name: String { get }
    var width: Int { get }
    var height: Int { get }
    /// A version of its pixels (a digest of its description): changes when the image does.
    var version: String { get }
    /// The id and type a Georeference Annotation gives it as `target.source` (an IIIF image
    /// service's id without `/info.json`; `ImageService2` or `ImageService3`).
    var sourceID: String { get }
    var sourceType: String { get }
    /// A reader for one worker.
    func makeReader() throws -> any ScanReader
}

/// The one place a scan's name becomes a reader: a local path through GDAL, an http(s) URL
/// through the opener the program installed (the CLI installs the IIIF one with its cache and
/// User-Agent). A remote scan is opened once and kept for the process, so its description and
/// decoded tiles are shared by every stage that reads it.
public enum ScanSources {
    private struct State {
        var opener: (@Sendable (String) throws -> any RemoteScan)?
        var opened: [String: any RemoteScan] = [:]
    }
    private static let state = Locked(State())

    /// True when `name` is an http:// or https:// URL (a remote scan), not a file path.
    public static func isRemote(_ name: String) -> Bool {
        let lower = name.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    /// Installs how remote names are opened (replacing any opener, forgetting what was opened).
    public static func setRemoteOpener(_ opener: @escaping @Sendable (String) throws -> any RemoteScan) {
        state.withLock { $0 = State(opener: opener) }
    }

    /// Keeps `scan`, opened already (from async code, say), for its name.
    public static func add(_ scan: any RemoteScan) {
        state.withLock { $0.opened[scan.name] = scan }
    }

    /// The remote scan opened for `name` so far, without opening it; nil when none is.
    public static func known(_ name: String) -> (any RemoteScan)? {
        state.withLock { $0.opened[name] }
    }

    /// The remote scan `name` names, opened on first use; nil for a local path.
    public static func remote(_ name: String) throws -> (any RemoteScan)? {
        guard isRemote(name) else { return nil }
        let (known, opener) = state.withLock { ($0.opened[name], $0.opener) }
        if let known { return known }
        guard let opener else {
            throw ScanError(.unreadable, at: name, "a URL, but this program reads no remote scans; give a local file")
        }
        let scan = try opener(name)
        return state.withLock { s in
            if let first = s.opened[name] { return first }
            s.opened[name] = scan
            return scan
        }
    }

    /// A reader of the scan `name` names, for one worker: `mapped` (a local file's mapping, see
    /// TegulaWarp's `WarpSource.mapped`) or `decoded` (a local file's shared decoded blocks, see
    /// TegulaWarp's `WarpSource.decoded`) for its full-resolution windows, and with `removal` the paper colour
    /// taken out of every window it reads, wherever the pixels come from (``PaperRemovingReader``).
    public static func open(_ name: String, mapped: MappedScan? = nil, decoded: DecodedScan? = nil,
                            removal: ColorRemoval? = nil) throws -> any ScanReader {
        let reader: any ScanReader
        if let remote = try remote(name) {
            reader = try remote.makeReader()
        } else {
            let raster = try SourceRaster(path: name)
            raster.mapped = mapped
            raster.decoded = decoded
            reader = raster
        }
        return removal.map { PaperRemovingReader(reader, removal: $0) } ?? reader
    }
}

extension ScanSources {
    /// The whole scan `name` names reduced to `width` × `height`, RGB (3 bytes a pixel), read as
    /// the warp reads it (an IIIF image at the coarsest scale factor that keeps that detail): the
    /// picture of a fit (TegulaGeoreference's `GeoreferenceWriter.ScanThumbnail`).
    public static func thumbnail(of name: String, width: Int, height: Int) throws -> [UInt8] {
        let reader = try open(name)
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        try rgba.withUnsafeMutableBufferPointer {
            try reader.readRGBA(x: 0, y: 0, width: reader.width, height: reader.height, bufferWidth: width, bufferHeight: height,
                                into: $0.baseAddress!)
        }
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for i in 0..<(width * height) { for c in 0..<3 { rgb[i * 3 + c] = rgba[i * 4 + c] } }
        return rgb
    }
}

/// A scan read with its paper colour taken out (`remove_color:`, ``ColorRemoval``): the one place
/// removal is applied, over any ``ScanReader`` (a file through GDAL, an IIIF image), so every
/// stage after it sees paper as transparency.
public final class PaperRemovingReader: ScanReader {
    let base: any ScanReader
    public let removal: ColorRemoval
    public var width: Int { base.width }
    public var height: Int { base.height }
    /// Paper becomes transparent: never opaque.
    public var isOpaque: Bool { false }
    public var hasOwnReductions: Bool { base.hasOwnReductions }

    public init(_ base: any ScanReader, removal: ColorRemoval) {
        self.base = base
        self.removal = removal
    }

    public func readRGBA(x: Int, y: Int, width w: Int, height h: Int, bufferWidth bw: Int, bufferHeight bh: Int,
                         into out: UnsafeMutablePointer<UInt8>) throws {
        try base.readRGBA(x: x, y: y, width: w, height: h, bufferWidth: bw, bufferHeight: bh, into: out)
        removal.apply(to: out, count: bw * bh)
    }
}

/// The server a remote scan's pixels come from failed after its retries (an HTTP status or no
/// answer): the read may succeed later, so a tile server answers 503 with `Retry-After`, and a
/// run ends with this one line naming the URL and the status.
public struct RemoteScanUnavailable: Error, CustomStringConvertible, Sendable {
    /// One line: the URL, the status, what would be right.
    public var description: String
    /// Seconds after which asking again may succeed.
    public var retryAfter: Int

    public init(_ description: String, retryAfter: Int = 30) {
        self.description = description
        self.retryAfter = retryAfter
    }
}
