import TegulaGeometry

/// The zooms a tile stage is asked for: each end given, or left to be chosen from the scan (nil:
/// the max nearest its native resolution, the min where it is about one tile; ``TileJob/zoomRange()``).
/// `tegula tile --zoom` gives both ends or neither (a ``ZoomSpec``); a pipeline file's `tile:`
/// section may give either alone. Checked once where it is made: each end a zoom of the grid,
/// the min not above the max.
public struct ZoomRequest: Sendable, Hashable, CustomStringConvertible {
    /// Lowest zoom; nil = chosen from the scan.
    public let min: Int?
    /// Highest zoom; nil = chosen from the scan.
    public let max: Int?

    /// Both ends chosen from the scan.
    public static let auto = ZoomRequest(checked: nil, nil)

    /// The ends; nil unless each given one is a zoom (``ZoomRange/isZoom(_:)``) and min ≤ max.
    public init?(min: Int?, max: Int?) {
        guard min.map(ZoomRange.isZoom) ?? true, max.map(ZoomRange.isZoom) ?? true else { return nil }
        if let min, let max, min > max { return nil }
        self.init(checked: min, max)
    }

    /// `--zoom`: `auto`, or both ends of its range.
    public init(_ spec: ZoomSpec) {
        self.init(checked: spec.range?.min, spec.range?.max)
    }

    private init(checked min: Int?, _ max: Int?) {
        self.min = min
        self.max = max
    }

    /// This request with its max, when none is given, set to `zoom` (a pipeline's warp zoom). The
    /// ends may then cross, as a given min may exceed the max chosen from the scan:
    /// ``TileJob/zoomRange()`` refuses both alike.
    public func withDefaultMax(_ zoom: Int?) -> ZoomRequest {
        ZoomRequest(checked: min, max ?? zoom)
    }

    /// `MIN-MAX`, with `auto` for an end to be chosen.
    public var description: String { "\(min.map(String.init) ?? "auto")-\(max.map(String.init) ?? "auto")" }
}
