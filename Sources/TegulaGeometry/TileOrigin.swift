/// Where row 0 of a tile grid lies: a field of the grid, not a flag threaded through calls.
///
/// XYZ (Google, OSM, MapKit) counts rows from the top; TMS (and MBTiles) from the bottom.
public enum TileOrigin: String, Sendable, CaseIterable {
    /// Row 0 at the north edge (XYZ).
    case topLeft
    /// Row 0 at the south edge (TMS, MBTiles, MapKit's `isGeometryFlipped`).
    case bottomLeft

    /// The row a tile has in a grid with this origin, given its XYZ row.
    public func row(forXYZRow y: Int, zoom: Int) -> Int {
        switch self {
        case .topLeft: return y
        case .bottomLeft: return (1 << zoom) - 1 - y
        }
    }

    /// The XYZ row of a row counted in a grid with this origin (the flip is its own inverse).
    public func xyzRow(forRow row: Int, zoom: Int) -> Int { self.row(forXYZRow: row, zoom: zoom) }
}
