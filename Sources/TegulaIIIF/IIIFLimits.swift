/// Caps checked before anything is allocated for a remote image: a server's claims and answers
/// beyond them are refused in one line, never trusted.
public struct IIIFLimits: Sendable, Hashable {
    /// The largest image accepted, in pixels (width × height): 2³¹, a 46,000² scan (the
    /// largest map scans published are about 40,000²; a 10⁹-pixel claim beyond this is refused).
    public var maxPixels: Int = 1 << 31
    /// The longest side accepted, in pixels.
    public var maxSide: Int = 1 << 17
    /// The most tiles one scale factor may have.
    public var maxTiles: Int = 1 << 16
    /// The largest answer read, in bytes (a 1024² PNG tile is at most 4 MiB of pixels plus overhead).
    public var maxResponseBytes: Int = 32 << 20
    /// The largest info.json read, in bytes.
    public var maxInfoBytes: Int = 1 << 20
    /// Redirects followed for one request.
    public var maxRedirects: Int = 5

    public init() {}

    /// `info`'s dimensions and tile grids within the caps, else one line naming `location`.
    public func check(_ info: IIIFImageInfo, at location: String) throws(IIIFError) {
        guard info.width <= maxSide, info.height <= maxSide, info.width * info.height <= maxPixels else {
            throw IIIFError(
                .overLimit, at: location,
                "claims \(info.width) × \(info.height) pixels; tegula reads IIIF images "
                    + "of at most \(maxSide) pixels a side and \(maxPixels) pixels in all")
        }
        for t in info.tiles {
            for s in t.scaleFactors {
                let g = t.gridSize(scaleFactor: s, imageWidth: info.width, imageHeight: info.height)
                guard g.columns * g.rows <= maxTiles else {
                    throw IIIFError(
                        .overLimit, at: location,
                        "\(g.columns * g.rows) tiles of \(t.width) × \(t.height) at scale factor \(s); "
                            + "at most \(maxTiles) are fetched for one scale factor")
                }
            }
        }
    }
}
