import Foundation
import TegulaCodec
import TegulaGDAL
import TegulaIIIFServer
import TegulaScan
import TegulaSupport
import TegulaTileset

/// A scan served as an IIIF image (``IIIFImageSource``): any window of it at any size, read as
/// RGBA through its ``ScanReader`` (a file through GDAL, where a reduced size is an averaged read
/// GDAL takes from the file's overviews or JPEG's DCT scaling when it has them; or a remote IIIF
/// image, read at its coarsest scale factor that keeps the detail asked for) and encoded with Tegula's codecs, on the shared ``RenderQueue``, so
/// at most one window per render thread holds its pixels.
///
/// Its version is the scan's file identity (a remote image's: the digest of its info.json): a scan
/// replaced on disk is served anew (ETags change) once the source is opened again; the size read
/// at start-up stays.
public final class ScanImage: IIIFImageSource, @unchecked Sendable {
    /// The URL id.
    public let id: String
    /// The scan, opened.
    public let scan: OpenedScan
    /// Its path or URL, as given.
    public var path: String { scan.path }
    public let width: Int
    public let height: Int
    public let scaleFactors: [Int]
    public let version: String
    /// The number of overview levels the file has (0: GDAL reads full resolution and averages);
    /// for a remote image 1 when its server offers reduced sizes, else 0.
    public let overviewCount: Int
    let queue: RenderQueue
    /// Readers not in use: a GDAL dataset is never shared between threads, so each render takes
    /// one (or opens one) and puts it back; at most one per render thread is ever open.
    private let idle = Locked<[any ScanReader]>([])

    /// The side of the smallest reduced copy listed: `scaleFactors` stop once the whole image
    /// fits one 512-px tile, as the IIIF tiles the service lists are 512 px.
    public static let tileSide = 512

    /// Serves `scan` (a file: 8-bit bands, at most ``RasterLimits/maximumOnDemandPixels``; a
    /// remote image as a ``ScanOpener`` opened it); an error names the file and why.
    public init(id: String, scan: OpenedScan, queue: RenderQueue) throws {
        let raster = try scan.reader()
        if let file = raster as? SourceRaster {
            try RasterLimits.checkBands(file.dataset)
            try RasterLimits.checkOnDemand(file.dataset)
            overviewCount = file.dataset.overviewCount
        } else {
            overviewCount = raster.hasOwnReductions ? 1 : 0
        }
        self.id = id
        self.scan = scan
        self.queue = queue
        width = raster.width
        height = raster.height
        var factors = [1]
        while max(width, height) > factors.last! * Self.tileSide { factors.append(factors.last! * 2) }
        scaleFactors = factors
        if let remote = scan.remote {
            version = FNV1a.hex("\(scan.path) \(remote.version) \(width)x\(height)")
        } else {
            let stamp = FileIdentity(path: scan.path)
            version = FNV1a.hex("\(scan.path) \(stamp?.size ?? -1) \(stamp?.modified ?? -1) \(width)x\(height)")
        }
        idle.withLock { $0.append(raster) }
    }

    /// Serves the local file at `path` (a URL is refused in one line: ``LocalScans``).
    public convenience init(id: String, path: String, queue: RenderQueue) throws {
        try self.init(id: id, scan: LocalScans().open(path), queue: queue)
    }

    public func image(_ window: ImageWindow, isCancelled: @escaping @Sendable () -> Bool) async -> DynamicTile {
        let key = Key(id: id, version: version, window: window)
        return await queue.submit(key, isCancelled: isCancelled) { [self] in
            let start = Date()
            do {
                return .image(try render(window), version: version, seconds: Date().timeIntervalSince(start))
            } catch {
                return .failed("\(path): \(window): \(error)")
            }
        }
    }

    /// One render on the queue per image, version and window: a second request for the same
    /// window waits for the first.
    struct Key: Hashable, Sendable {
        var id: String
        var version: String
        var window: ImageWindow
    }

    /// The window read and encoded on the caller's thread.
    public func render(_ w: ImageWindow) throws -> [UInt8] {
        let raster = try idle.withLock { $0.popLast() } ?? scan.reader()
        defer { idle.withLock { $0.append(raster) } }
        var rgba = [UInt8](repeating: 0, count: w.outputWidth * w.outputHeight * 4)
        try rgba.withUnsafeMutableBufferPointer { p in
            try raster.readRGBA(
                x: w.x, y: w.y, width: w.width, height: w.height,
                bufferWidth: w.outputWidth, bufferHeight: w.outputHeight, into: p.baseAddress!)
        }
        return try Self.encode(RGBAImage(width: w.outputWidth, height: w.outputHeight, pixels: rgba), as: w.format)
    }

    /// The encodings the service offers: PNG as `tegula tile` writes it (RGB when opaque), JPEG
    /// and lossy WebP at quality 85, Tegula's default for both.
    static func encode(_ image: RGBAImage, as format: TileFormat) throws -> [UInt8] {
        switch format {
        case .jpeg: return try JPEGEncoder(quality: 85).encode(image)
        case .webp: return try WebPEncoder(quality: 85).encode(image)
        default: return PNGEncoder().encodeDroppingOpaqueAlpha(image)
        }
    }
}
