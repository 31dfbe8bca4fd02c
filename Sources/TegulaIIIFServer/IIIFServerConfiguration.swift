/// What shapes the IIIF image server's answers, beside the HTTP core's ``ServerConfiguration``
/// (CORS, the base URL, the longest target): the caching of image answers and the largest image made.
public struct IIIFServerConfiguration: Sendable, Equatable {
    /// `Cache-Control` for image answers (`tegula serve --cache-control`, as for tiles).
    public var cacheControl: String
    /// The most pixels an image answer may have (`info.json`'s `maxArea`; a larger size is
    /// refused with 400): 2^24, 64 MiB of RGBA held per render, and at most one render per
    /// render thread at a time.
    public var maxArea: Int

    /// The defaults of `tegula serve`.
    public init(cacheControl: String = "public, max-age=3600", maxArea: Int = 1 << 24) {
        self.cacheControl = cacheControl
        self.maxArea = maxArea
    }
}
