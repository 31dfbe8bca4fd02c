// libFuzzer target: PNG bytes (a tile read back, an overlay's source) decoded to RGBA.
// Joined to TegulaCodec by scripts/fuzz.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNG(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: count))
    if let image = try? PNGDecoder.decode(bytes) {
        precondition(image.pixels.count == image.width * image.height * 4)
    }
    return 0
}
