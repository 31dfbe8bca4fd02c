/// A position in a tile matrix set's CRS, in x/y order whatever the CRS's axis order: x is the
/// easting or longitude, y the northing or latitude (morecantile's `always_xy`). In the CRS's units
/// (metres, feet or degrees): a ``TileMatrixSet`` says which.
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

    /// The same position, for the Web Mercator grid (EPSG:3857 metres).
    public init(_ p: ProjectedPoint) { self.init(x: p.x, y: p.y) }

    /// `(x, y)`.
    public var description: String { "(\(x), \(y))" }
}

/// A box in a tile matrix set's CRS, in x/y order (left, bottom, right, top), as
/// ``ProjectedBounds`` is for EPSG:3857.
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

    /// The same box, for the Web Mercator grid.
    public init(_ b: ProjectedBounds) { self.init(left: b.left, bottom: b.bottom, right: b.right, top: b.top) }

    /// The same box as EPSG:3857 metres, for a grid in that CRS.
    public var projected: ProjectedBounds { ProjectedBounds(left: left, bottom: bottom, right: right, top: top) }

    /// The width, right − left.
    public var width: Double { right - left }
    /// The height, top − bottom.
    public var height: Double { top - bottom }

    /// `left bottom right top`.
    public var description: String { "\(left) \(bottom) \(right) \(top)" }
}
