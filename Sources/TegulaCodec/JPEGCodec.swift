import CTurboJPEG

/// Encodes 8-bit RGB/RGBA pixels as baseline JPEG (4:2:0) with libjpeg-turbo's TurboJPEG API.
///
/// RGBA input is read as RGB (the alpha byte is skipped, not blended): callers pass opaque
/// pixels or flatten first. An encoder owns a TurboJPEG handle: use one per thread.
public final class JPEGEncoder {
    private let handle: tjhandle
    /// The JPEG quality, 1–100.
    public let quality: Int

    /// - Parameter quality: 1–100 (libjpeg's scale; 75 is its default, 85 looks like the paper).
    public init(quality: Int = 85) {
        precondition((1...100).contains(quality), "JPEG quality is 1–100")
        self.quality = quality
        handle = tjInitCompress()!
    }

    deinit { tjDestroy(handle) }

    /// Encode `channels`-sample pixels (3 = RGB, 4 = RGBA read as RGB), row-major. Follows `tjCompress2`.
    public func encode(pixels: UnsafePointer<UInt8>, width: Int, height: Int, channels: Int) throws -> [UInt8] {
        precondition(channels == 3 || channels == 4)
        var out: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt = 0
        let format = channels == 4 ? tegula_tjpf_rgba : tegula_tjpf_rgb
        let rc = tjCompress2(
            handle, pixels, Int32(width), Int32(width * channels), Int32(height), format,
            &out, &size, tegula_tjsamp_420, Int32(quality), 0)
        defer { if let out { tjFree(out) } }
        guard rc == 0, let out else {
            throw CodecError(.encodeFailed, "tjCompress2 failed: \(String(cString: tjGetErrorStr2(handle)))")
        }
        return Array(UnsafeBufferPointer(start: out, count: Int(size)))
    }

    /// Encode an image (RGB, or RGBA read as RGB).
    public func encode(_ image: RGBAImage) throws -> [UInt8] {
        try image.pixels.withUnsafeBufferPointer {
            try encode(pixels: $0.baseAddress!, width: image.width, height: image.height, channels: image.channels)
        }
    }
}

/// Decodes JPEG with TurboJPEG (`tjDecompressHeader3`, `tjDecompress2`) to opaque RGBA.
public enum JPEGDecoder {
    /// Decode any baseline or progressive JPEG to 8-bit RGBA (alpha 255).
    public static func decode(_ data: [UInt8]) throws -> RGBAImage {
        guard let handle = tjInitDecompress() else { throw CodecError(.unreadableJPEG, "tjInitDecompress failed") }
        defer { tjDestroy(handle) }
        var width: Int32 = 0, height: Int32 = 0, subsamp: Int32 = 0, colorspace: Int32 = 0
        let header = data.withUnsafeBufferPointer {
            tjDecompressHeader3(handle, $0.baseAddress, UInt($0.count), &width, &height, &subsamp, &colorspace)
        }
        guard header == 0, width > 0, height > 0 else {
            throw CodecError(.unreadableJPEG, "not a readable JPEG: \(String(cString: tjGetErrorStr2(handle)))")
        }
        var pixels = [UInt8](repeating: 255, count: Int(width) * Int(height) * 4)
        let rc = data.withUnsafeBufferPointer { src in
            pixels.withUnsafeMutableBufferPointer { dst in
                tjDecompress2(
                    handle, src.baseAddress, UInt(src.count), dst.baseAddress, width, width * 4, height,
                    tegula_tjpf_rgba, 0)
            }
        }
        guard rc == 0 else {
            throw CodecError(.unreadableJPEG, "corrupt JPEG: \(String(cString: tjGetErrorStr2(handle)))")
        }
        return RGBAImage(width: Int(width), height: Int(height), channels: 4, pixels: pixels)
    }
}
