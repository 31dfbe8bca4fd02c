// The png fuzz body (FuzzCase): PNG bytes (a tile read back, an overlay's source) decoded to
// RGBA. Run by Fuzz/Targets/png.swift (joined to TegulaCodec by scripts/fuzz) and by
// FuzzReplayTests.
#if !TEGULA_FUZZ_TARGET
    import TegulaCodec
    import TegulaTestSupport
#endif

enum PNGFuzz {
    static func run(_ bytes: [UInt8], _ c: inout FuzzCase) {
        guard let image = c.attempt({ try PNGDecoder.decode(bytes) }) else { return }
        c.check(
            image.pixels.count == image.width * image.height * 4,
            "\(image.pixels.count) bytes of RGBA for \(image.width) × \(image.height) pixels")
    }
}
