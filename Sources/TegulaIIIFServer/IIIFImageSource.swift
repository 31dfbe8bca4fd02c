import TegulaTileset

/// A raster served as an IIIF Image API 3.0 service at `/iiif/{id}/` (``IIIFImageServer``): its size,
/// the scale factors of the reduced copies it reads cheaply, and any window of it at any size,
/// made off the event loop. The server parses the request, checks it against the image and its
/// caps, and writes `info.json` and the headers; the source only makes pixels.
public protocol IIIFImageSource: Sendable {
    /// Full width and height in pixels.
    var width: Int { get }
    var height: Int { get }
    /// Powers of two, 1 first, at which the whole image is read from a reduced copy (a file's
    /// overviews, JPEG's DCT scaling, GDAL's averaged reads): `info.json`'s `scaleFactors`.
    var scaleFactors: [Int] { get }
    /// Changes whenever a pixel could: strong ETags are made from it.
    var version: String { get }
    /// The window made and encoded: `.image` (seconds: how long it took), `.cancelled` when the
    /// client left before the work started, `.failed` with one line.
    func image(_ window: ImageWindow, isCancelled: @escaping @Sendable () -> Bool) async -> DynamicTile
    /// The window made and encoded on the caller's thread (``IIIFImageServer/renderNow(_:_:)``,
    /// `tegula serve`'s synchronous path; the servers await ``image(_:isCancelled:)`` instead).
    func render(_ window: ImageWindow) throws -> [UInt8]
}

/// What one IIIF image request comes to once resolved against the image (IIIF Image API 3.0
/// §4.1–4.5, rotation 0, quality default): a region of full-resolution pixels, the size it is
/// scaled to, and the encoding.
public struct ImageWindow: Hashable, Sendable, CustomStringConvertible {
    /// The region in full-resolution pixels, inside the image.
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int
    /// The size the region is scaled to.
    public var outputWidth: Int
    public var outputHeight: Int
    /// PNG, JPEG or WebP.
    public var format: TileFormat

    /// A window from its parts.
    public init(x: Int, y: Int, width: Int, height: Int, outputWidth: Int, outputHeight: Int, format: TileFormat) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.outputWidth = outputWidth
        self.outputHeight = outputHeight
        self.format = format
    }

    /// `x,y,w,h → W×H .ext`.
    public var description: String { "\(x),\(y),\(width),\(height) → \(outputWidth)×\(outputHeight) .\(format.fileExtension)" }
}
