import Foundation

/// A paper colour taken out of a scan's pixels as they are read (``PaperRemovingReader``), so
/// every stage after it — kernels, the pyramid's halving, the reduced copies of tiles on demand,
/// the composite's blending — sees paper as transparency, as it sees a scan's own alpha. Straight
/// alpha: a pixel keeps its colour and its alpha is scaled by the smoothstep of
/// `RemoveColorOptions` (the pipeline file's `remove_color:`).
public struct ColorRemoval: Sendable, Hashable, CustomStringConvertible {
    /// The paper colour.
    public let color: RGBColor
    /// Colour distance (channels 0–1) below which alpha falls, and how sharply (0–1).
    public let threshold: Double
    public let hardness: Double
    /// Alpha factor (0–255) by squared distance in levels (0 … `table.count − 1`); 255 beyond.
    private let table: [UInt8]

    public init(color: RGBColor, threshold: Double, hardness: Double) {
        self.color = color
        self.threshold = threshold
        self.hardness = hardness
        let t = threshold * 255, t2 = Int((t * t).rounded(.up))
        table = (0..<min(t2 + 1, 3 * 255 * 255 + 1)).map { d2 in
            UInt8((ColorRemoval.amount(distance: Double(d2).squareRoot() / 255, threshold: threshold, hardness: hardness) * 255).rounded())
        }
    }

    /// The alpha kept (0–1) at colour distance `d`: Allmaps' `smoothstep(threshold × hardness,
    /// threshold, d)` below the threshold, 1 from it on; hardness 1 is a step at the threshold.
    public static func amount(distance d: Double, threshold: Double, hardness: Double) -> Double {
        guard d < threshold else { return 1 }
        let e0 = threshold * hardness
        guard threshold > e0 else { return 0 }
        let x = min(max((d - e0) / (threshold - e0), 0), 1)
        return x * x * (3 - 2 * x)
    }

    /// The factor (0–255) alpha is scaled by for a pixel of colour (`r`, `g`, `b`).
    @inline(__always)
    public func factor(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt8 {
        let dr = Int(r) - Int(color.red), dg = Int(g) - Int(color.green), db = Int(b) - Int(color.blue)
        let d2 = dr * dr + dg * dg + db * db
        return d2 < table.count ? table[d2] : 255
    }

    /// Scale the alpha of `count` RGBA pixels in place.
    public func apply(to pixels: UnsafeMutablePointer<UInt8>, count: Int) {
        table.withUnsafeBufferPointer { t in
            let n = t.count
            let cr = Int(color.red), cg = Int(color.green), cb = Int(color.blue)
            for i in 0..<count {
                let p = pixels + i * 4
                let dr = Int(p[0]) - cr, dg = Int(p[1]) - cg, db = Int(p[2]) - cb
                let d2 = dr * dr + dg * dg + db * db
                guard d2 < n else { continue }
                let f = Int(t[d2])
                p[3] = UInt8((Int(p[3]) * f + 127) / 255)
            }
        }
    }

    /// `#rrggbb threshold T hardness H`, as logs and versions write it.
    public var description: String { "\(color.hex) threshold \(threshold) hardness \(hardness)" }
}
