import Foundation
import TegulaGeometry

/// The tiles of one warped block: a block is one tile at the block zoom whose pixels were warped
/// at the max zoom (2^(max − block) tiles a side). ``walk(image:block:maxZoom:tilePixels:halved:visit:)``
/// cuts the max-zoom tiles out, halves the image (``Downsampler``) and cuts again, zoom by zoom
/// down to the block zoom: the one place the pyramid and the composite turn a block into tiles.
package enum BlockTiles {
    /// Visit every tile of the block from the max zoom down to the block's own zoom (rows top to
    /// bottom within a zoom); returns the block tile's own pixels. `halved` gets the seconds each
    /// halving took.
    ///
    /// Each tile is copied out of the block before its visit. Encoding it in place instead (rows
    /// a block apart) took as long on the benchmark pyramid: the copy's 2 % moved into the alpha
    /// scan and the PNG filter, which then missed the cache.
    package static func walk(
        image: [UInt8], block: Tile, maxZoom: Int, tilePixels p: Int,
        halved: (Double) -> Void = { _ in },
        visit: (Tile, [UInt8]) throws -> Void
    ) throws -> [UInt8] {
        var image = image
        var tilesPerSide = 1 << (maxZoom - block.z)
        var side = p * tilesPerSide
        precondition(image.count == side * side * 4, "block image of the wrong size")
        var z = maxZoom
        var tile = [UInt8](repeating: 0, count: p * p * 4)
        while true {
            if tilesPerSide == 1 {
                try visit(Tile(x: block.x, y: block.y, z: z), image)
                return image
            }
            for ty in 0..<tilesPerSide {
                for tx in 0..<tilesPerSide {
                    image.withUnsafeBufferPointer { src in
                        tile.withUnsafeMutableBufferPointer { dst in
                            for row in 0..<p {
                                let s = src.baseAddress! + ((ty * p + row) * side + tx * p) * 4
                                (dst.baseAddress! + row * p * 4).update(from: s, count: p * 4)
                            }
                        }
                    }
                    try visit(Tile(x: block.x * tilesPerSide + tx, y: block.y * tilesPerSide + ty, z: z), tile)
                }
            }
            let t0 = Date()
            let half = Self.uninitialized((side / 2) * (side / 2) * 4) { d in
                image.withUnsafeBufferPointer { s in Downsampler.half(s.baseAddress!, width: side, height: side, into: d) }
            }
            halved(Date().timeIntervalSince(t0))
            image = half
            side /= 2
            tilesPerSide /= 2
            z -= 1
        }
    }

    /// A byte array of `count` that `fill` writes whole (no zeroing first: a block's 4 MB image
    /// and its halvings, written in full by the warp and the halving).
    static func uninitialized(_ count: Int, fill: (UnsafeMutablePointer<UInt8>) throws -> Void) rethrows -> [UInt8] {
        try [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            try fill(buffer.baseAddress!)
            initialized = count
        }
    }
}
