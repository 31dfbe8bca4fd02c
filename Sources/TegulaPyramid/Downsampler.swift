/// Halves RGBA8 images with a 2×2 box filter in premultiplied alpha: alpha is the mean alpha,
/// colour the alpha-weighted mean colour, so transparent pixels never darken their neighbours.
enum Downsampler {
    /// `src` is `width` × `height` (both even); writes `width/2` × `height/2` into `dst`.
    static func half(_ src: UnsafePointer<UInt8>, width: Int, height: Int, into dst: UnsafeMutablePointer<UInt8>) {
        let ow = width / 2, oh = height / 2
        for j in 0..<oh {
            let r0 = src + (2 * j) * width * 4
            let r1 = r0 + width * 4
            let o = dst + j * ow * 4
            for i in 0..<ow {
                let a = r0 + 8 * i, b = a + 4, c = r1 + 8 * i, d = c + 4
                let aa = Int(a[3]), ba = Int(b[3]), ca = Int(c[3]), da = Int(d[3])
                let sa = aa + ba + ca + da
                let p = o + 4 * i
                if sa == 0 {
                    p[0] = 0; p[1] = 0; p[2] = 0; p[3] = 0
                } else if sa == 1020 {
                    p[0] = UInt8((Int(a[0]) + Int(b[0]) + Int(c[0]) + Int(d[0]) + 2) >> 2)
                    p[1] = UInt8((Int(a[1]) + Int(b[1]) + Int(c[1]) + Int(d[1]) + 2) >> 2)
                    p[2] = UInt8((Int(a[2]) + Int(b[2]) + Int(c[2]) + Int(d[2]) + 2) >> 2)
                    p[3] = 255
                } else {
                    let half = sa / 2
                    p[0] = UInt8((Int(a[0]) * aa + Int(b[0]) * ba + Int(c[0]) * ca + Int(d[0]) * da + half) / sa)
                    p[1] = UInt8((Int(a[1]) * aa + Int(b[1]) * ba + Int(c[1]) * ca + Int(d[1]) * da + half) / sa)
                    p[2] = UInt8((Int(a[2]) * aa + Int(b[2]) * ba + Int(c[2]) * ca + Int(d[2]) * da + half) / sa)
                    p[3] = UInt8((sa + 2) >> 2)
                }
            }
        }
    }

    /// A parent tile from its four children (`p` × `p` RGBA each, nil = empty), in the slot order
    /// top-left, top-right, bottom-left, bottom-right (slot = 2·(y & 1) + (x & 1)).
    static func parent(of children: [[UInt8]?], tilePixels p: Int) -> [UInt8] {
        var big = [UInt8](repeating: 0, count: 4 * p * p * 4)
        for (k, child) in children.enumerated() {
            guard let child else { continue }
            let ox = (k & 1) * p, oy = (k >> 1) * p
            big.withUnsafeMutableBufferPointer { dst in
                child.withUnsafeBufferPointer { src in
                    for row in 0..<p {
                        (dst.baseAddress! + ((oy + row) * 2 * p + ox) * 4).update(from: src.baseAddress! + row * p * 4, count: p * 4)
                    }
                }
            }
        }
        var out = [UInt8](repeating: 0, count: p * p * 4)
        big.withUnsafeBufferPointer { s in
            out.withUnsafeMutableBufferPointer { d in half(s.baseAddress!, width: 2 * p, height: 2 * p, into: d.baseAddress!) }
        }
        return out
    }
}
