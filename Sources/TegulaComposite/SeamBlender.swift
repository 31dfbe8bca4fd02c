/// Joins the layers of one composite block where they overlap, by ``SeamMode`` (`over` is
/// ``Compositor``'s and never comes here). A pixel only one layer covers (alpha > 0) is that
/// layer's pixel, byte for byte. Where several cover it:
/// - `feather PX`: each layer weighs its distance to its own mask edge, capped at PX (at least
///   0.001 px, so a pixel on every edge still has weights); colour is the mean weighted by weight
///   × alpha, alpha is their union (1 − Π(1 − αᵢ)), so opaque layers stay opaque;
/// - `cut`: the layer whose mask edge is farthest (the later in the stacking order on a tie) is
///   drawn over the others, which are stacked as `over` stacks them: where it is opaque the pixel
///   is its own.
enum SeamBlender {
    /// The smallest weight of a covering layer, in pixels.
    static let floorWeight = 0.001

    /// Blend `layers` (RGBA, straight alpha, `side` × `side`, bottom of the stacking order
    /// first) into `out`, with each layer's distance to its mask edge from `distances`.
    static func blend(
        _ layers: [UnsafePointer<UInt8>], distances: [EdgeDistance], mode: SeamMode, side: Int,
        into out: UnsafeMutablePointer<UInt8>
    ) {
        let n = layers.count
        var covering = [Int](repeating: 0, count: n)
        var d = [Double](repeating: 0, count: n)
        for j in 0..<side {
            for i in 0..<side {
                let p = (j * side + i) * 4
                var m = 0
                for k in 0..<n where layers[k][p + 3] != 0 { covering[m] = k; m += 1 }
                let o = out + p
                if m == 0 { o[0] = 0; o[1] = 0; o[2] = 0; o[3] = 0; continue }
                if m == 1 {
                    let l = layers[covering[0]] + p
                    o[0] = l[0]; o[1] = l[1]; o[2] = l[2]; o[3] = l[3]
                    continue
                }
                for c in 0..<m { d[c] = distances[covering[c]].at(i, j) }
                switch mode {
                case .feather:
                    var w = 0.0, r = 0.0, g = 0.0, b = 0.0, clear = 1.0
                    var opaque = false
                    for c in 0..<m {
                        let l = layers[covering[c]] + p
                        let a = Double(l[3])
                        let wa = max(d[c], floorWeight) * a
                        w += wa
                        r += wa * Double(l[0]); g += wa * Double(l[1]); b += wa * Double(l[2])
                        clear *= 1 - a / 255
                        if l[3] == 255 { opaque = true }
                    }
                    o[0] = UInt8(min(255, (r / w).rounded())); o[1] = UInt8(min(255, (g / w).rounded()))
                    o[2] = UInt8(min(255, (b / w).rounded()))
                    o[3] = opaque ? 255 : UInt8(min(255, (255 * (1 - clear)).rounded()))
                case .cut, .over:
                    var best = 0
                    for c in 1..<m where d[c] >= d[best] { best = c }
                    let top = layers[covering[best]] + p
                    if top[3] == 255 { o[0] = top[0]; o[1] = top[1]; o[2] = top[2]; o[3] = 255; continue }
                    o[0] = 0; o[1] = 0; o[2] = 0; o[3] = 0
                    for c in 0..<m where c != best { Compositor.over(layers[covering[c]] + p, onto: o, pixels: 1) }
                    Compositor.over(top, onto: o, pixels: 1)
                }
            }
        }
    }
}
