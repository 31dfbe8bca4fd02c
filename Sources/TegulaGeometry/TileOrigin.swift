import TegulaSupport

/// Where row 0 of a tile grid lies: a field of the grid, not a flag threaded through calls.
///
/// XYZ (Google, OSM, MapKit) counts rows from the top; TMS (and MBTiles) from the bottom. The
/// one type for a folder's row order (`--layout`, `layout:`), a TileJSON `scheme`, a server
/// route under `/tms/` and an overlay's flipped geometry; named `xyz` and `tms`.
public enum TileOrigin: String, Sendable, CaseIterable, NamedValue, Codable {
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

    /// Parses `xyz` or `tms`, any case.
    public init?(name: String) {
        switch name.lowercased() {
        case "xyz": self = .topLeft
        case "tms": self = .bottomLeft
        default: return nil
        }
    }
    /// `xyz` or `tms`.
    public var name: String { self == .topLeft ? "xyz" : "tms" }
    /// Both names.
    public static var names: [String] { allCases.map(\.name) }
    /// "folder layout".
    public static var kind: String { "folder layout" }
    /// Decodes a name with ``init(name:)``.
    public init(from decoder: Decoder) throws { self = try Self.decodeNamed(from: decoder) }
    /// Encodes the canonical name.
    public func encode(to encoder: Encoder) throws { try encodeName(to: encoder) }
}
