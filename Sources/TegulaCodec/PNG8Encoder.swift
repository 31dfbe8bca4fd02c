import CImageQuant

/// Encodes RGBA pixels as palette PNG ("PNG8"): libimagequant picks as few RGBA colours as reach
/// its quality target (at most 256) and remaps without dithering (`liq_image_quantize`,
/// `liq_write_remapped_image`); the libdeflate PNG writer stores the indices with PLTE and tRNS,
/// so transparency is kept. One per thread.
///
/// Each knob was measured alone on every 5th tile of the benchmark pyramid (`scripts/png8-knobs`;
/// bytes, and PSNR over opaque pixels against the lossless tiles; BENCHMARKS.md, "Figures behind the code"): no dithering
/// (dither noise costs deflate bytes and PSNR) and a quality cap of 85 give the fewest bytes for
/// the PSNR; a higher deflate level, a PNG filter or a slower quantizer cost CPU or bytes for
/// nothing, and 4-bit packing of small palettes or one shared palette would save almost nothing.
public final class PNG8Encoder {
    private let attr: OpaquePointer
    private let png: PNGEncoder
    private var indices: [UInt8] = []
    /// The largest palette libimagequant may use (2–256).
    public let maxColors: Int

    /// libimagequant's quality (0–100) at which it stops adding colours.
    public let quality: Int
    /// Error-diffusion dithering, 0 (none) – 1 (full).
    public let dithering: Float

    /// - Parameters: maxColors: 2–256; quality: the quality at which libimagequant stops adding
    ///   colours (its minimum is 0, so no image is refused); dithering: 0–1; speed:
    ///   libimagequant's 1 (best) – 10 (fastest); level: the libdeflate level for the indices.
    public init(maxColors: Int = 256, quality: Int = 85, dithering: Float = 0, speed: Int = 8, level: Int = 6) {
        precondition(
            (2...256).contains(maxColors) && (0...100).contains(quality) && (0...1).contains(dithering)
                && (1...10).contains(speed))
        self.maxColors = maxColors
        self.quality = quality
        self.dithering = dithering
        attr = liq_attr_create()!
        liq_set_max_colors(attr, Int32(maxColors))
        liq_set_quality(attr, 0, Int32(quality))
        liq_set_speed(attr, Int32(speed))
        png = PNGEncoder(level: level, filter: .none)
    }

    deinit { liq_attr_destroy(attr) }

    /// Encode `width × height` RGBA pixels, row-major.
    public func encode(rgba pixels: UnsafePointer<UInt8>, width: Int, height: Int) throws -> [UInt8] {
        guard let image = liq_image_create_rgba(attr, pixels, Int32(width), Int32(height), 0) else {
            throw CodecError(.encodeFailed, "liq_image_create_rgba refused a \(width)×\(height) image")
        }
        defer { liq_image_destroy(image) }
        var result: OpaquePointer? = nil
        let rc = liq_image_quantize(image, attr, &result)
        guard rc == LIQ_OK, let result else {
            throw CodecError(.encodeFailed, "liq_image_quantize failed with liq_error \(rc.rawValue)")
        }
        defer { liq_result_destroy(result) }
        liq_set_dithering_level(result, dithering)
        let count = width * height
        if indices.count < count { indices = [UInt8](repeating: 0, count: count) }
        let written = indices.withUnsafeMutableBytes { liq_write_remapped_image(result, image, $0.baseAddress!, count) }
        guard written == LIQ_OK, let pal = liq_get_palette(result) else {
            throw CodecError(.encodeFailed, "liq_write_remapped_image failed with liq_error \(written.rawValue)")
        }
        var palette: [(r: UInt8, g: UInt8, b: UInt8, a: UInt8)] = []
        withUnsafeBytes(of: pal.pointee.entries) { (raw: UnsafeRawBufferPointer) in
            for i in 0..<Int(pal.pointee.count) {
                let r: UInt8 = raw[i * 4], g: UInt8 = raw[i * 4 + 1], b: UInt8 = raw[i * 4 + 2], a: UInt8 = raw[i * 4 + 3]
                palette.append((r: r, g: g, b: b, a: a))
            }
        }
        return indices.withUnsafeBufferPointer {
            png.encodeIndexed(indices: $0.baseAddress!, width: width, height: height, palette: palette)
        }
    }

    /// Encode an RGBA image (RGB images are given opaque alpha first).
    public func encode(_ image: RGBAImage) throws -> [UInt8] {
        let rgba = image.rgba
        return try rgba.pixels.withUnsafeBufferPointer {
            try encode(rgba: $0.baseAddress!, width: rgba.width, height: rgba.height)
        }
    }
}
