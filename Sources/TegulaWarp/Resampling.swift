import Foundation
import TegulaSupport

/// Resampling kernels for warping, named as gdalwarp names them (`-r`); bilinear by default.
public enum Resampling: String, CaseIterable, NamedValue, Codable {
    case near, bilinear, cubic, lanczos, average

    /// The kernel used when none is named.
    public static let `default` = Resampling.bilinear

    /// Parses a kernel's name (`nearest` for `near`), any case.
    public init?(name: String) {
        let n = name.lowercased()
        guard let r = Resampling(rawValue: n == "nearest" ? "near" : n) else { return nil }
        self = r
    }
    /// The canonical name (gdalwarp's).
    public var name: String { rawValue }
    /// Every kernel's name.
    public static var names: [String] { allCases.map(\.rawValue) }
    /// "resampling kernel".
    public static var kind: String { "resampling kernel" }
    /// Decodes a name with ``init(name:)``.
    public init(from decoder: Decoder) throws { self = try Self.decodeNamed(from: decoder) }
    /// Encodes the canonical name.
    public func encode(to encoder: Encoder) throws { try encodeName(to: encoder) }

    /// Kernel radius in source pixels at scale 1 (GDAL: bilinear 1, cubic 2, lanczos 3). For
    /// average, the reach of ``areaWeight(offset:footprint:)``: half the footprint plus half a
    /// pixel, which one widened unit (footprint ≥ 1) always covers.
    var radius: Double {
        switch self {
        case .near: return 0.5
        case .bilinear: return 1
        case .cubic: return 2
        case .lanczos: return 3
        case .average: return 1
        }
    }

    /// Average's weight for a source pixel whose centre lies `d` pixels from the output pixel's
    /// (along one axis): the length of that pixel, [d − ½, d + ½], inside the output pixel's
    /// footprint, `footprint` source pixels wide and centred at 0. So a pixel the footprint
    /// partly covers counts by the part covered, as GDAL's average weighs it (GWKAverageOrMode);
    /// before, a pixel counted whole when its centre fell in the footprint (at least the
    /// nearest), which at the max zoom (footprint about 1) was nearest neighbour.
    @inline(__always)
    static func areaWeight(offset d: Double, footprint: Double) -> Double {
        let h = footprint / 2
        return max(0, min(h, d + 0.5) - max(-h, d - 0.5))
    }

    /// The kernel's weight at distance `t` (in kernel units, i.e. source pixels ÷ scale).
    @inline(__always)
    func weight(_ t: Double) -> Double {
        let x = abs(t)
        switch self {
        case .near:
            return x <= 0.5 ? 1 : 0
        case .average:  // as a footprint of one pixel (see ``areaWeight(offset:footprint:)``)
            return Self.areaWeight(offset: x, footprint: 1)
        case .bilinear:
            return x < 1 ? 1 - x : 0
        case .cubic:
            // Keys' cubic convolution with a = −0.5 (GDAL's GWKCubic).
            if x < 1 { return (1.5 * x - 2.5) * x * x + 1 }
            if x < 2 { return ((-0.5 * x + 2.5) * x - 4) * x + 2 }
            return 0
        case .lanczos:
            if x == 0 { return 1 }
            if x >= 3 { return 0 }
            let px = Double.pi * x
            return 3 * sin(px) * sin(px / 3) / (px * px)
        }
    }
}
