/// What a source that makes tiles on request (the server's `DynamicTileSource`) answers for one
/// tile, and an IIIF image source for one window (TegulaIIIFServer's `IIIFImageSource`).
public enum DynamicTile: Sendable, Equatable {
    /// The encoded tile, of the version it was made for, and how long making it took (nil when
    /// it came from memory).
    case image([UInt8], version: String, seconds: Double?)
    /// Nothing to draw here (a fully transparent tile), as a bundle has no such tile.
    case empty(version: String)
    /// Outside the source's footprint: known without making anything.
    case outside
    /// The client went away before the work started; nothing was made.
    case cancelled
    /// Making the tile failed (one line, for the log and the 500 body).
    case failed(String)
    /// The server the pixels come from failed (one line); asking again after `retryAfter`
    /// seconds may succeed (503 with `Retry-After`).
    case unavailable(String, retryAfter: Int)
}
