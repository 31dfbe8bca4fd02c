import TegulaCodec

/// Images the codec tests make.
enum CodecFixtures {
    /// A `width` × `height` image of `channels` (3: RGB, 4: RGBA): ramps in red and green (and
    /// alpha), noise from a fixed LCG in blue, so the same pixels every run and no flat area.
    static func sample(width: Int, height: Int, channels: Int) -> RGBAImage {
        var px = [UInt8](repeating: 0, count: width * height * channels)
        var state: UInt32 = 12345
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 1664525 &+ 1013904223
                let i = (y * width + x) * channels
                px[i] = UInt8(truncatingIfNeeded: x * 3 + y)
                px[i + 1] = UInt8(truncatingIfNeeded: y * 5)
                px[i + 2] = UInt8(truncatingIfNeeded: state >> 24)
                if channels == 4 { px[i + 3] = UInt8(truncatingIfNeeded: (x + y) * 2) }
            }
        }
        return RGBAImage(width: width, height: height, channels: channels, pixels: px)
    }
}
