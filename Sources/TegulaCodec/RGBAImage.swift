/// An 8-bit image, pixel-interleaved, row-major, straight (not premultiplied) alpha.
public struct RGBAImage: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// Samples per pixel: 4 (RGBA) or 3 (RGB).
    public var channels: Int
    /// `width × height × channels` samples.
    public var pixels: [UInt8]

    public init(width: Int, height: Int, channels: Int = 4, pixels: [UInt8]) {
        precondition(channels == 3 || channels == 4, "RGBAImage holds RGB or RGBA")
        precondition(pixels.count == width * height * channels, "pixel count does not match the size")
        self.width = width
        self.height = height
        self.channels = channels
        self.pixels = pixels
    }

    /// A fully transparent RGBA image.
    public init(width: Int, height: Int) {
        self.init(width: width, height: height, channels: 4, pixels: [UInt8](repeating: 0, count: width * height * 4))
    }

    /// The same pixels as RGBA (opaque alpha added to RGB).
    public var rgba: RGBAImage {
        if channels == 4 { return self }
        var out = [UInt8](repeating: 255, count: width * height * 4)
        for i in 0..<(width * height) {
            out[i * 4] = pixels[i * 3]
            out[i * 4 + 1] = pixels[i * 3 + 1]
            out[i * 4 + 2] = pixels[i * 3 + 2]
        }
        return RGBAImage(width: width, height: height, channels: 4, pixels: out)
    }
}
