import Foundation

/// A grid of one's own over an extent, as morecantile's `TileMatrixSet.custom` makes it (the
/// same numbers, operation for operation): what `tegula grid --tms-from` writes.
extension TileMatrixSet {
    /// What the CRS contributes to a custom grid, read by the caller from PROJ (this module has
    /// none): its URI, the metres in one of its units, and its axes' abbreviations in order.
    public struct CustomCRS: Sendable, Hashable {
        /// `http://www.opengis.net/def/crs/EPSG/0/27700`.
        public var uri: String
        /// 1 for metres; 2πa/360 for degrees (a the ellipsoid's semi-major axis), as TMS 2.0 says.
        public var metersPerUnit: Double
        /// The axes' abbreviations in the CRS's order (`["E", "N"]`, `["Lat", "Lon"]`), written as
        /// `orderedAxes` so that a reader without PROJ knows which comes first.
        public var axes: [String]

        /// The CRS's three facts.
        public init(uri: String, metersPerUnit: Double, axes: [String]) {
            self.uri = uri
            self.metersPerUnit = metersPerUnit
            self.axes = axes
        }

        /// True when the first axis is a northing or latitude (morecantile `crs_axis_inverted`).
        public var northingFirst: Bool { axes.first.map { ["Y", "LAT", "N"].contains($0.uppercased()) } ?? false }
    }

    /// A quadtree over `extent` (in the CRS, x/y order): at zoom z, matrixScale × 2^z tiles and the
    /// cell size that fits the extent's longer side, from `corner` (morecantile `custom` with its
    /// defaults: 0.28 mm pixels, decimation base 2).
    public static func custom(
        extent: GridBounds, crs: CustomCRS, zooms: ClosedRange<Int> = 0...24,
        tileWidth: Int = 256, tileHeight: Int = 256, matrixScale: (Int, Int) = (1, 1),
        corner: TileMatrix.Corner = .topLeft, id: String? = nil, title: String? = nil
    ) throws -> TileMatrixSet {
        let origin = originPoint(extent, corner: corner, northingFirst: crs.northingFirst)
        let width = abs(extent.right - extent.left), height = abs(extent.top - extent.bottom)
        let levels = zooms.map { z -> TileMatrix in
            let scale = pow(2.0, Double(z))
            let cell = max(width / Double(tileWidth * matrixScale.0) / scale, height / Double(tileHeight * matrixScale.1) / scale)
            return TileMatrix(
                id: "\(z)", scaleDenominator: cell * crs.metersPerUnit / 0.28e-3, cellSize: cell,
                cornerOfOrigin: corner, pointOfOrigin: origin, tileWidth: tileWidth, tileHeight: tileHeight,
                matrixWidth: matrixScale.0 << z, matrixHeight: matrixScale.1 << z)
        }
        return try TileMatrixSet(id: id ?? "Custom", title: title, crs: crs.uri, orderedAxes: crs.axes, tileMatrices: levels)
    }

    /// The corner of `extent` rows are counted from, in the CRS's axis order.
    static func originPoint(_ extent: GridBounds, corner: TileMatrix.Corner, northingFirst: Bool) -> [Double] {
        let y = corner == .topLeft ? extent.top : extent.bottom
        return northingFirst ? [y, extent.left] : [extent.left, y]
    }
}
