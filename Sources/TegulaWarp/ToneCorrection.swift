import Foundation

/// A sheet's tone correction, per channel `v' = gain × v + offset` on the red, green and blue
/// levels (0–255) of its warped pixels, rounded to the nearest level and clamped to 0–255; alpha
/// is kept. Solved by the composite's tone matching (`composite.tone`, TegulaComposite's
/// `ToneMatch`) and applied to the sheet's pixels after its warp and before any blend, in the
/// composite and on demand alike.
public struct ToneCorrection: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Red, green and blue gains (1 = unchanged).
    public var gain: [Double]
    /// Red, green and blue offsets, in levels (0 = unchanged).
    public var offset: [Double]

    /// The correction that changes nothing.
    public static let identity = ToneCorrection(gain: [1, 1, 1], offset: [0, 0, 0])

    public init(gain: [Double], offset: [Double]) {
        precondition(gain.count == 3 && offset.count == 3, "a tone correction has three channels")
        self.gain = gain
        self.offset = offset
    }

    /// The corrected level of `v` in channel `c`.
    public func level(_ v: UInt8, channel c: Int) -> UInt8 {
        UInt8(min(255, max(0, (gain[c] * Double(v) + offset[c]).rounded())))
    }

    /// Each channel's 256 corrected levels, red first.
    public var table: [UInt8] {
        (0..<3).flatMap { c in (0...255).map { level(UInt8($0), channel: c) } }
    }

    /// Correct the colour of `count` RGBA pixels in place (straight alpha: a pixel of alpha 0
    /// keeps its bytes, so an empty pixel stays empty).
    public func apply(to pixels: UnsafeMutablePointer<UInt8>, count: Int) {
        let t = table
        t.withUnsafeBufferPointer { t in
            for i in 0..<count {
                let p = pixels + i * 4
                guard p[3] != 0 else { continue }
                p[0] = t[Int(p[0])]
                p[1] = t[256 + Int(p[1])]
                p[2] = t[512 + Int(p[2])]
            }
        }
    }

    /// `gain R G B offset R G B`, 4 and 2 decimals, as the log writes it.
    public var description: String {
        "gain " + gain.map { String(format: "%.4f", $0) }.joined(separator: " ")
            + " offset " + offset.map { String(format: "%+.2f", $0) }.joined(separator: " ")
    }
}
