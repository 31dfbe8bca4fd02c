import TegulaGeometry

/// PMTiles v3 tile ids: tiles numbered along a Hilbert curve within each zoom, zooms in order
/// (z0 is 0, z1 is 1…4, z2 starts at 5). Follows `ZxyToID`/`IDToZxy` of the PMTiles spec.
public enum PMTilesID {
    /// The first id of zoom z: (4^z − 1) / 3.
    static func base(_ z: Int) -> UInt64 { ((UInt64(1) << UInt64(2 * z)) - 1) / 3 }

    /// The id of a tile (z ≤ 31).
    public static func id(of t: Tile) -> UInt64 {
        var x = UInt64(t.x), y = UInt64(t.y)
        let n = UInt64(1) << UInt64(t.z)
        var d: UInt64 = 0
        var s = n >> 1
        while s > 0 {
            let rx: UInt64 = (x & s) > 0 ? 1 : 0
            let ry: UInt64 = (y & s) > 0 ? 1 : 0
            d += s * s * ((3 * rx) ^ ry)
            (x, y) = rotate(n, x, y, rx, ry)
            s >>= 1
        }
        return base(t.z) + d
    }

    /// The tile an id names.
    public static func tile(of id: UInt64) -> Tile {
        var z = 0
        while z < 31 && base(z + 1) <= id { z += 1 }
        let n = UInt64(1) << UInt64(z)
        var t = id - base(z)
        var x: UInt64 = 0, y: UInt64 = 0
        var s: UInt64 = 1
        while s < n {
            let rx = 1 & (t / 2)
            let ry = 1 & (t ^ rx)
            (x, y) = rotate(s, x, y, rx, ry)
            x += s * rx
            y += s * ry
            t /= 4
            s *= 2
        }
        return Tile(x: Int(x), y: Int(y), z: z)
    }

    private static func rotate(_ n: UInt64, _ x: UInt64, _ y: UInt64, _ rx: UInt64, _ ry: UInt64) -> (UInt64, UInt64) {
        guard ry == 0 else { return (x, y) }
        if rx == 1 { return (n - 1 - y, n - 1 - x) }
        return (y, x)
    }
}
