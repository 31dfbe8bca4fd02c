/// A position in a tile grid's CRS, in x/y order whatever the CRS's axis order: x is the easting
/// or longitude, y the northing or latitude (morecantile's `always_xy`). In the CRS's units
/// (metres, feet or degrees): a ``TileMatrixSet`` says which. For Web Mercator
/// (``TileMatrixSet/webMercatorQuad``) these are EPSG:3857 metres, the values ``WebMercator``
/// projects to; `ProjectedPoint` is this type's older name.
public struct GridPoint: Hashable, Sendable, CustomStringConvertible {
    /// The easting (or longitude).
    public var x: Double
    /// The northing (or latitude).
    public var y: Double

    /// A point from its easting and northing.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The same point: `ProjectedPoint` and `GridPoint` are one type now.
    @available(*, deprecated, message: "ProjectedPoint is GridPoint: use the value itself")
    public init(_ p: GridPoint) { self = p }

    /// `(x, y)`.
    public var description: String { "(\(x), \(y))" }
}

/// A box in a tile grid's CRS, in x/y order: left, bottom, right, top (mercantile's `Bbox`). For
/// Web Mercator, EPSG:3857 metres; `ProjectedBounds` is this type's older name.
public struct GridBounds: Hashable, Sendable, CustomStringConvertible {
    /// The smallest x.
    public var left: Double
    /// The smallest y.
    public var bottom: Double
    /// The largest x.
    public var right: Double
    /// The largest y.
    public var top: Double

    /// A box from its edges.
    public init(left: Double, bottom: Double, right: Double, top: Double) {
        self.left = left
        self.bottom = bottom
        self.right = right
        self.top = top
    }

    /// The same box: `ProjectedBounds` and `GridBounds` are one type now.
    @available(*, deprecated, message: "ProjectedBounds is GridBounds: use the value itself")
    public init(_ b: GridBounds) { self = b }

    /// The same box: `ProjectedBounds` and `GridBounds` are one type now.
    @available(*, deprecated, message: "ProjectedBounds is GridBounds: use the value itself")
    public var projected: GridBounds { self }

    /// The width, right − left.
    public var width: Double { right - left }
    /// The height, top − bottom.
    public var height: Double { top - bottom }

    /// The smallest box holding both.
    public func union(_ other: GridBounds) -> GridBounds {
        GridBounds(
            left: min(left, other.left), bottom: min(bottom, other.bottom),
            right: max(right, other.right), top: max(top, other.top))
    }

    /// The overlap, or nil when the boxes do not overlap.
    public func intersection(_ other: GridBounds) -> GridBounds? {
        let box = GridBounds(
            left: max(left, other.left), bottom: max(bottom, other.bottom),
            right: min(right, other.right), top: min(top, other.top))
        return box.left < box.right && box.bottom < box.top ? box : nil
    }

    /// The whole Web Mercator square in EPSG:3857 metres (``TileMatrixSet/webMercatorQuad``'s
    /// extent).
    public static let world = GridBounds(
        left: -WebMercator.halfCircumference, bottom: -WebMercator.halfCircumference,
        right: WebMercator.halfCircumference, top: WebMercator.halfCircumference)

    /// `left bottom right top`.
    public var description: String { "\(left) \(bottom) \(right) \(top)" }
}
