import CPNG

/// Decodes PNG with libpng's simplified API (png_image_*), which reports errors by return code.
public enum PNGDecoder {
    /// Decode any PNG to 8-bit RGBA, straight alpha.
    public static func decode(_ data: [UInt8]) throws -> RGBAImage {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        let ok = data.withUnsafeBytes { p in
            png_image_begin_read_from_memory(&image, p.baseAddress, data.count)
        }
        guard ok != 0 else { throw CodecError(.unreadablePNG, "not a readable PNG: \(message(&image))") }
        image.format = tegula_png_format_rgba
        let width = Int(image.width), height = Int(image.height)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let done = pixels.withUnsafeMutableBytes { out in
            png_image_finish_read(&image, nil, out.baseAddress, Int32(width * 4), nil)
        }
        defer { png_image_free(&image) }
        guard done != 0 else { throw CodecError(.corruptPNG, "corrupt PNG: \(message(&image))") }
        return RGBAImage(width: width, height: height, channels: 4, pixels: pixels)
    }

    private static func message(_ image: inout png_image) -> String {
        withUnsafeBytes(of: &image.message) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
