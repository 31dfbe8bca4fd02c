import Foundation

/// One tile of the Web Mercator pyramid in XYZ numbering (row 0 at the top).
///
/// The canonical example used in docs and tests is `Tile(x: 486, y: 332, z: 10)`, whose
/// upper-left corner is (−9.140625, 53.33087298301705) and quadkey "0313102310" (mercantile).
public struct Tile: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var z: Int

    public init(x: Int, y: Int, z: Int) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// True when z is within 0…30 and x and y within 0..<2^z.
    public var isValid: Bool {
        z >= 0 && z <= WebMercator.maxZoom && x >= 0 && y >= 0 && x < (1 << z) && y < (1 << z)
    }

    /// Printed as `Z X Y`, the form every CLI command uses.
    public var description: String { "\(z) \(x) \(y)" }

    public static func < (a: Tile, b: Tile) -> Bool { (a.z, a.x, a.y) < (b.z, b.x, b.y) }

    // MARK: Bounds

    /// The upper-left (north-west) corner in degrees (mercantile `ul`).
    public var upperLeft: Coordinate {
        let n = pow(2, Double(z))
        let lon = Double(x) / n * 360 - 180
        let lat = atan(sinh(Double.pi * (1 - 2 * Double(y) / n))) * 180 / Double.pi
        return Coordinate(longitude: lon, latitude: lat)
    }

    /// The tile's box in degrees (mercantile `bounds`).
    public var bounds: GeoBounds {
        let ul = upperLeft
        let lr = Tile(x: x + 1, y: y + 1, z: z).upperLeft
        return GeoBounds(west: ul.longitude, south: lr.latitude, east: lr.longitude, north: ul.latitude)
    }

    /// The tile's box in EPSG:3857 metres (mercantile `xy_bounds`): its bounds in
    /// ``TileMatrixSet/webMercatorQuad`` (z within 0…30), origin + index × span.
    public var projectedBounds: ProjectedBounds { TileMatrixSet.webMercatorQuad.bounds(of: self) }

    // MARK: Hierarchy

    /// The tile one zoom level up that contains this one, or nil at zoom 0.
    public var parent: Tile? {
        z > 0 ? Tile(x: x >> 1, y: y >> 1, z: z - 1) : nil
    }

    /// The ancestor at `zoom` (≤ z).
    public func ancestor(atZoom zoom: Int) -> Tile {
        precondition(zoom <= z && zoom >= 0, "ancestor zoom must be 0...\(z)")
        let d = z - zoom
        return Tile(x: x >> d, y: y >> d, z: zoom)
    }

    /// The four tiles one level down, in mercantile's order: top-left, top-right, bottom-right,
    /// bottom-left.
    public var children: [Tile] {
        let cx = x * 2, cy = y * 2, cz = z + 1
        return [
            Tile(x: cx, y: cy, z: cz), Tile(x: cx + 1, y: cy, z: cz),
            Tile(x: cx + 1, y: cy + 1, z: cz), Tile(x: cx, y: cy + 1, z: cz),
        ]
    }

    // MARK: Row numbering

    /// The row of this tile in TMS numbering (origin bottom-left): `2^z − 1 − y`.
    public var tmsY: Int { TileOrigin.bottomLeft.row(forXYZRow: y, zoom: z) }

    /// A tile given its TMS row.
    public init(x: Int, tmsY: Int, z: Int) {
        self.init(x: x, y: TileOrigin.bottomLeft.xyzRow(forRow: tmsY, zoom: z), z: z)
    }

    // MARK: Quadkeys

    /// The Bing-style quadkey: one digit per zoom, digit = x bit + 2·y bit, most significant
    /// first; zoom 0 is "".
    public var quadkey: String {
        var digits = [Character]()
        digits.reserveCapacity(z)
        for level in stride(from: z, to: 0, by: -1) {
            let mask = 1 << (level - 1)
            var digit = 0
            if x & mask != 0 { digit += 1 }
            if y & mask != 0 { digit += 2 }
            digits.append(Character(String(digit)))
        }
        return String(digits)
    }

    /// The tile a quadkey names, or nil when it holds anything but the digits 0–3 or is longer
    /// than 30 digits.
    public init?(quadkey: String) {
        guard quadkey.count <= WebMercator.maxZoom else { return nil }
        var tx = 0, ty = 0
        for ch in quadkey {
            tx <<= 1
            ty <<= 1
            switch ch {
            case "0": break
            case "1": tx |= 1
            case "2": ty |= 1
            case "3": tx |= 1; ty |= 1
            default: return nil
            }
        }
        self.init(x: tx, y: ty, z: quadkey.count)
    }
}
