import Foundation
import TegulaScan

/// `remove_color:` (a map's section, `map_defaults:`, `tegula serve --remove-color`): the scan's
/// blank paper made transparent so the basemap shows through. A scan pixel whose colour lies
/// within `threshold` of the paper colour (Euclidean RGB distance, channels 0–1, so at most √3)
/// loses alpha as Allmaps' renderer does: alpha × smoothstep(threshold × hardness, threshold,
/// distance); hardness 1 cuts at the threshold, 0 fades from the colour itself.
/// ``resolve(scan:mapping:)`` turns it into the ``ColorRemoval`` the warp applies. Its front ends
/// are `tegula serve`'s options and the pipeline file's section (Codable in the pipeline module).
public struct RemoveColorOptions: Sendable, Hashable {
    /// The paper colour: named, or `auto` (``MarginColor``: the dominant colour of the scan's
    /// margin around its mask).
    public enum Paper: Sendable, Hashable {
        case auto
        case color(RGBColor)
    }

    public var color: Paper
    /// Colour distance below which alpha falls (0 < threshold ≤ √3); 0.1 by default.
    public var threshold: Double
    /// How sharp the fall is (0–1); 0.7 by default.
    public var hardness: Double

    /// Defaults when nil: threshold 0.1 (about 15 levels on each channel), hardness 0.7.
    public static let defaultThreshold = 0.1
    public static let defaultHardness = 0.7

    public init(color: Paper = .auto, threshold: Double = defaultThreshold, hardness: Double = defaultHardness) {
        self.color = color
        self.threshold = threshold
        self.hardness = hardness
    }

    /// Why `threshold` or `hardness` is out of range, or nil.
    public static func problem(threshold: Double, hardness: Double) -> String? {
        if !(threshold > 0 && threshold <= 3.0.squareRoot()) {
            return "threshold \(threshold) is out of range; expected a colour distance in (0, 1.732] (0.1 is about 15 levels a channel)"
        }
        if !(hardness >= 0 && hardness <= 1) { return "hardness \(hardness) is out of range; expected 0–1" }
        return nil
    }

    /// The paper colour as written: `auto` or `#RRGGBB`; nil when it is neither.
    public static func paper(_ text: String) -> Paper? {
        text.lowercased() == "auto" ? .auto : RGBColor(hex: text).map(Paper.color)
    }

    /// The removal for one scan: `auto` measured on the scan (its margin around the mapping's
    /// mask), a named colour as it is.
    public func resolve(scan: OpenedScan, mapping: SourceMapping) throws -> ColorRemoval {
        let paper: RGBColor
        switch color {
        case .color(let rgb): paper = rgb
        case .auto: paper = try MarginColor.dominant(in: scan.reader(), name: scan.path, mask: mapping.mask)
        }
        return ColorRemoval(color: paper, threshold: threshold, hardness: hardness)
    }
}
