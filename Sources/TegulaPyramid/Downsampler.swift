import CKernels

/// Halves RGBA8 images with a 2×2 box filter in premultiplied alpha: alpha is the mean alpha,
/// colour the alpha-weighted mean colour, so transparent pixels never darken their neighbours.
enum Downsampler {
    /// `src` is `width` × `height` (both even); writes `width/2` × `height/2` into `dst`.
    static func half(_ src: UnsafePointer<UInt8>, width: Int, height: Int, into dst: UnsafeMutablePointer<UInt8>) {
        // In C for its SSE2 lanes: Swift turned the opaque case's vector loads into byte
        // extractions (perf annotate; its share of the pyramid in BENCHMARKS.md).
        tegula_halve(src, width, height, dst)
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
