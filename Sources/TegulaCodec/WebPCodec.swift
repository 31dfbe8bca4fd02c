import CWebP

/// Encodes 8-bit RGB/RGBA pixels as WebP with libwebp's advanced API (`WebPConfig`, `WebPEncode`):
/// lossless (VP8L) unless a quality is given, lossy (VP8 + alpha) with one. Stateless: one per
/// thread or shared, libwebp keeps no state between calls.
public struct WebPEncoder: Sendable {
    /// Lossy quality 1–100, or nil for lossless.
    public let quality: Int?
    /// libwebp's lossless preset 0–9 (`WebPConfigLosslessPreset`: 0 fastest, 9 smallest).
    public let losslessEffort: Int
    /// Lossless only: keep the colour under fully transparent pixels (`WebPConfig.exact`). Off,
    /// libwebp may store any colour there (GDAL's WEBP driver's default, `EXACT=0`): alpha and
    /// every pixel with alpha > 0 still decode exactly.
    public let keepsTransparentColour: Bool

    /// - Parameters: quality: nil for lossless, else the lossy quality 1–100; losslessEffort: 0–9;
    ///   keepsTransparentColour: `WebPConfig.exact` for lossless.
    public init(quality: Int? = nil, losslessEffort: Int = 1, keepsTransparentColour: Bool = false) {
        precondition(quality.map { (1...100).contains($0) } ?? true, "WebP quality is 1–100")
        precondition((0...9).contains(losslessEffort), "WebP lossless effort is 0–9")
        self.quality = quality
        self.losslessEffort = losslessEffort
        self.keepsTransparentColour = keepsTransparentColour
    }

    /// Encode `channels`-sample pixels (3 = RGB, 4 = RGBA), row-major. Follows `WebPEncode`.
    public func encode(pixels: UnsafePointer<UInt8>, width: Int, height: Int, channels: Int) throws -> [UInt8] {
        precondition(channels == 3 || channels == 4)
        var config = WebPConfig()
        guard tegula_webp_config_init(&config, Float(quality ?? 75)) != 0 else {
            throw CodecError(.encodeFailed, "WebPConfigPreset failed (libwebp version mismatch?)")
        }
        if quality == nil {
            guard WebPConfigLosslessPreset(&config, Int32(losslessEffort)) != 0 else {
                throw CodecError(.encodeFailed, "WebPConfigLosslessPreset(\(losslessEffort)) failed")
            }
            config.exact = keepsTransparentColour ? 1 : 0
            config.near_lossless = 100  // 100 is off: lossless stays lossless (the preset keeps it so; said here)
        }
        // libwebp keeps a pointer to the writer inside the picture: both live on the heap so
        // their addresses stay fixed for the whole encode.
        let picture = UnsafeMutablePointer<WebPPicture>.allocate(capacity: 1)
        let writer = UnsafeMutablePointer<WebPMemoryWriter>.allocate(capacity: 1)
        defer { picture.deallocate(); writer.deallocate() }
        guard tegula_webp_picture_init(picture) != 0 else {
            throw CodecError(.encodeFailed, "WebPPictureInit failed (libwebp version mismatch?)")
        }
        picture.pointee.width = Int32(width)
        picture.pointee.height = Int32(height)
        picture.pointee.use_argb = quality == nil ? 1 : 0
        defer { WebPPictureFree(picture) }
        let stride = Int32(width * channels)
        let imported =
            channels == 4
            ? WebPPictureImportRGBA(picture, pixels, stride)
            : WebPPictureImportRGB(picture, pixels, stride)
        guard imported != 0 else { throw CodecError(.encodeFailed, "WebPPictureImport failed (out of memory)") }
        _ = tegula_webp_memory_writer_init(writer)
        defer { WebPMemoryWriterClear(writer) }
        tegula_webp_use_memory_writer(picture, writer)
        guard WebPEncode(&config, picture) != 0 else {
            throw CodecError(.encodeFailed, "WebPEncode failed with error code \(picture.pointee.error_code.rawValue)")
        }
        return Array(UnsafeBufferPointer(start: writer.pointee.mem, count: writer.pointee.size))
    }

    /// Encode an image.
    public func encode(_ image: RGBAImage) throws -> [UInt8] {
        try image.pixels.withUnsafeBufferPointer {
            try encode(pixels: $0.baseAddress!, width: image.width, height: image.height, channels: image.channels)
        }
    }
}

/// Decodes WebP (lossy, lossless, with or without alpha) with libwebp's `WebPDecodeRGBAInto`.
public enum WebPDecoder {
    /// Decode to 8-bit RGBA, straight alpha (255 where the file has none).
    public static func decode(_ data: [UInt8]) throws -> RGBAImage {
        var width: Int32 = 0, height: Int32 = 0
        guard WebPGetInfo(data, data.count, &width, &height) != 0, width > 0, height > 0 else {
            throw CodecError(.unreadableWebP, "not a readable WebP (WebPGetInfo refused its header)")
        }
        let size = Int(width) * Int(height) * 4
        var pixels = [UInt8](repeating: 0, count: size)
        let ok = pixels.withUnsafeMutableBufferPointer {
            WebPDecodeRGBAInto(data, data.count, $0.baseAddress, size, width * 4) != nil
        }
        guard ok else { throw CodecError(.unreadableWebP, "corrupt WebP: WebPDecodeRGBAInto failed") }
        return RGBAImage(width: Int(width), height: Int(height), channels: 4, pixels: pixels)
    }
}
