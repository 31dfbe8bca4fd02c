/// One level of a tile matrix set: a grid of `matrixWidth` × `matrixHeight` tiles of
/// `tileWidth` × `tileHeight` cells of `cellSize` CRS units, counted from `pointOfOrigin` at
/// `cornerOfOrigin` (OGC 17-083r4, TMS 2.0, `tileMatrix.json`).
public struct TileMatrix: Codable, Hashable, Sendable {
    /// The level's identifier; Tegula (as morecantile) requires an integer, the zoom.
    public var id: String
    /// The scale at 0.28 mm a pixel.
    public var scaleDenominator: Double
    /// The size of one cell (pixel) in CRS units.
    public var cellSize: Double
    /// Where rows and columns are counted from; nil in the document means `topLeft`.
    public var cornerOfOrigin: Corner?
    /// The corner's position, in the CRS's axis order (latitude first for EPSG:4326).
    public var pointOfOrigin: [Double]
    /// Cells across one tile.
    public var tileWidth: Int
    /// Cells down one tile.
    public var tileHeight: Int
    /// Tiles across the matrix.
    public var matrixWidth: Int
    /// Tiles down the matrix.
    public var matrixHeight: Int
    /// Rows whose tiles are coalesced (wider), as polar rows of a global geographic grid are.
    public var variableMatrixWidths: [VariableMatrixWidth]?

    /// A corner of origin, as the TMS 2.0 document names it.
    public enum Corner: String, Codable, Hashable, Sendable {
        /// Row 0 at the top.
        case topLeft
        /// Row 0 at the bottom.
        case bottomLeft

        /// The same corner as Tegula's row order.
        public var origin: TileOrigin { self == .topLeft ? .topLeft : .bottomLeft }
    }

    /// Rows `minTileRow…maxTileRow` whose tiles span `coalesce` columns each (TMS 2.0
    /// `variableMatrixWidth.json`).
    public struct VariableMatrixWidth: Codable, Hashable, Sendable {
        /// Columns one tile spans.
        public var coalesce: Int
        /// The first row so coalesced.
        public var minTileRow: Int
        /// The last row so coalesced.
        public var maxTileRow: Int
    }

    /// A level from its fields, `topLeft` and no coalesced rows unless given.
    public init(
        id: String, scaleDenominator: Double, cellSize: Double, cornerOfOrigin: Corner? = nil,
        pointOfOrigin: [Double], tileWidth: Int, tileHeight: Int, matrixWidth: Int, matrixHeight: Int,
        variableMatrixWidths: [VariableMatrixWidth]? = nil
    ) {
        self.id = id
        self.scaleDenominator = scaleDenominator
        self.cellSize = cellSize
        self.cornerOfOrigin = cornerOfOrigin
        self.pointOfOrigin = pointOfOrigin
        self.tileWidth = tileWidth
        self.tileHeight = tileHeight
        self.matrixWidth = matrixWidth
        self.matrixHeight = matrixHeight
        self.variableMatrixWidths = variableMatrixWidths
    }

    /// The corner rows are counted from (`topLeft` when the document names none).
    public var corner: Corner { cornerOfOrigin ?? .topLeft }

    /// One tile's width in CRS units (cellSize × tileWidth).
    public var tileSpanX: Double { cellSize * Double(tileWidth) }
    /// One tile's height in CRS units (cellSize × tileHeight).
    public var tileSpanY: Double { cellSize * Double(tileHeight) }

    /// How many columns a tile of `row` spans: 1 unless the row is coalesced (morecantile
    /// `get_coalesce_factor`).
    public func coalesce(row: Int) -> Int {
        guard let widths = variableMatrixWidths else { return 1 }
        return widths.first { $0.minTileRow <= row && row <= $0.maxTileRow }?.coalesce ?? 1
    }

    /// The first column of the coalesced tile holding column `x` of `row`.
    public func coalescedColumn(_ x: Int, row: Int) -> Int {
        let cf = coalesce(row: row)
        return x - x % cf
    }
}
