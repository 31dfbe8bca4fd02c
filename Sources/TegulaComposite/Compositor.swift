import TegulaCodec

/// Porter–Duff "over" on straight alpha: where maps overlap, the later one is drawn over the
/// earlier ones (``CompositeBuilder`` blends every block this way, bottom layer first).
public enum Compositor {
    /// `top` over `bottom` (both RGBA, straight alpha, same size), in place.
    public static func over(_ top: RGBAImage, onto bottom: inout RGBAImage) {
        precondition(top.width == bottom.width && top.height == bottom.height, "tiles of different sizes")
        top.pixels.withUnsafeBufferPointer { t in
            bottom.pixels.withUnsafeMutableBufferPointer { b in over(t.baseAddress!, onto: b.baseAddress!, pixels: t.count / 4) }
        }
    }

    /// `pixels` RGBA pixels of `t` over those of `b`, in place.
    static func over(_ t: UnsafePointer<UInt8>, onto b: UnsafeMutablePointer<UInt8>, pixels: Int) {
        for i in stride(from: 0, to: pixels * 4, by: 4) {
            let ta = Int(t[i + 3])
            if ta == 255 { b[i] = t[i]; b[i + 1] = t[i + 1]; b[i + 2] = t[i + 2]; b[i + 3] = 255; continue }
            if ta == 0 { continue }
            let ba = Int(b[i + 3])
            // out_a = ta + ba (1 − ta), in units of 255²; colours weighted by their alpha shares.
            let wb = ba * (255 - ta)
            let oa = ta * 255 + wb
            for c in 0..<3 {
                b[i + c] = UInt8((Int(t[i + c]) * ta * 255 + Int(b[i + c]) * wb + oa / 2) / oa)
            }
            b[i + 3] = UInt8((oa + 127) / 255)
        }
    }
}
