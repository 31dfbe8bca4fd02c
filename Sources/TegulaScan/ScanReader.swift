import TegulaSupport

/// A scan's pixels read as RGBA windows at a reduction, wherever they live: a file through GDAL
/// (``SourceRaster``) or a remote image (an IIIF image service, TegulaIIIFSource). The warp, the
/// reduced copies and tiles on demand read through this alone, so a window read does not care
/// where its pixels come from.
///
/// One per worker thread (a GDAL dataset must not be shared; ``OpenedScan/reader(mapped:decoded:removal:)`` makes one).
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
    func readRGBA(
        x: Int, y: Int, width: Int, height: Int, bufferWidth: Int, bufferHeight: Int,
        into out: UnsafeMutablePointer<UInt8>) throws
}

extension SourceRaster: ScanReader {
    /// A file with overviews: GDAL reads a reduced window from them.
    public var hasOwnReductions: Bool { dataset.overviewCount > 0 }
}

/// A scan that is not a local file, named by a URL: opened once by a ``ScanOpener`` and shared by
/// the stages it is passed to, a reader made for each worker.
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

    public func readRGBA(
        x: Int, y: Int, width w: Int, height h: Int, bufferWidth bw: Int, bufferHeight bh: Int,
        into out: UnsafeMutablePointer<UInt8>
    ) throws {
        try base.readRGBA(x: x, y: y, width: w, height: h, bufferWidth: bw, bufferHeight: bh, into: out)
        removal.apply(to: out, count: bw * bh)
    }
}

/// The server a remote scan's pixels come from failed after its retries (an HTTP status or no
/// answer): the read may succeed later, so a tile server answers 503 with `Retry-After`, and a
/// run ends with this one line naming the URL and the status.
public struct RemoteScanUnavailable: Error, CustomStringConvertible, Sendable {
    /// The server's failure, kept whole (an IIIF client's error naming the URL and the status).
    public var underlying: any Error
    /// Seconds after which asking again may succeed.
    public var retryAfter: Int

    /// The server's failure `underlying`, worth asking again after `retryAfter` seconds.
    public init(_ underlying: any Error, retryAfter: Int = 30) {
        self.underlying = underlying
        self.retryAfter = retryAfter
    }

    /// One line: the underlying failure's (the URL, the status, what would be right).
    public var description: String { "\(underlying)" }
}
