import TegulaGeometry

/// How to make a tile deeper than the source's native zoom from its nearest native ancestor
/// (react-native-maps' `maximumNativeZ`): which ancestor, which part of it, and how much to
/// enlarge. Pure geometry; `upscale` does the pixels.
///
/// Example: tile 12/1946/1330 from native zoom 10 uses ancestor 10/486/332, the cell at column 2,
/// row 2 of its 4×4 split, enlarged 4×.
public struct OverzoomCrop: Hashable, Sendable {
    /// The tile wanted (XYZ).
    public let tile: Tile
    /// The ancestor at the native zoom whose pixels are enlarged.
    public let ancestor: Tile

    /// The crop for `tile` from zoom `nativeZoom`, or nil when the tile is not deeper than it.
    public init?(tile: Tile, nativeZoom: Int) {
        guard nativeZoom >= 0, tile.z > nativeZoom else { return nil }
        self.tile = tile
        self.ancestor = tile.ancestor(atZoom: nativeZoom)
        guard levels <= WebMercator.maxZoom else { return nil }
    }

    /// Zoom levels between the ancestor and the tile.
    public var levels: Int { tile.z - ancestor.z }
    /// Linear enlargement: 2^levels.
    public var scale: Int { 1 << levels }
    /// Column of the cropped cell in the ancestor's `scale × scale` split (0 = west).
    public var column: Int { tile.x - (ancestor.x << levels) }
    /// Row of the cropped cell in the ancestor's split (0 = north, XYZ).
    public var row: Int { tile.y - (ancestor.y << levels) }

    /// The cropped part of a `width × height` ancestor image in pixels (may be fractional when
    /// the split is finer than a pixel).
    public func cropRect(width: Int, height: Int) -> (x: Double, y: Double, width: Double, height: Double) {
        let s = Double(scale)
        return (
            Double(column) * Double(width) / s, Double(row) * Double(height) / s,
            Double(width) / s, Double(height) / s
        )
    }

    /// The tile's pixels: the crop of the ancestor's RGBA8 pixels (row-major, `width × height`)
    /// enlarged back to `width × height` by nearest neighbour, so every source pixel becomes an
    /// exact `scale × scale` block and colours and alpha are never blended.
    public func upscale(_ pixels: [UInt8], width: Int, height: Int) -> [UInt8] {
        precondition(pixels.count == width * height * 4, "expected \(width)×\(height) RGBA8 pixels")
        var out = [UInt8](repeating: 0, count: pixels.count)
        let s = scale
        // Source index = floor((cell origin · size + output index) / scale), in exact integers.
        let sourceColumns = (0..<width).map { ((column * width + $0) / s) * 4 }
        out.withUnsafeMutableBufferPointer { dst in
            pixels.withUnsafeBufferPointer { src in
                for oy in 0..<height {
                    let sy = (row * height + oy) / s
                    let srcRow = sy * width * 4
                    var d = oy * width * 4
                    for sx in sourceColumns {
                        let p = srcRow + sx
                        dst[d] = src[p]; dst[d + 1] = src[p + 1]; dst[d + 2] = src[p + 2]; dst[d + 3] = src[p + 3]
                        d += 4
                    }
                }
            }
        }
        return out
    }
}
