import TegulaCodec
import TegulaGeometry
import TegulaTileset

/// Builds the zooms above a stream of tiles of one zoom, streaming: tiles arrive in PMTiles
/// id order, where the four children of a tile are consecutive (the Hilbert curve visits a
/// tile's children one after another), so a parent is made (``Downsampler/parent(of:tilePixels:)``)
/// as soon as a tile of another parent arrives, and memory holds one parent per zoom. The same
/// arithmetic as the pyramid's own parents: a composite's zooms above its cut come out as if
/// one machine had built them.
public final class ParentBuilder {
    /// Lowest zoom to build.
    public let lowestZoom: Int
    public let tilePixels: Int
    private let emit: (Tile, [UInt8]) throws -> Void
    private let encoder: TileEncoder
    /// The parent being gathered at each zoom (key: the children's zoom).
    private var gathering: [Int: (parent: Tile, children: [[UInt8]?])] = [:]
    /// The id of the last parent finished at each zoom, to catch tiles out of order.
    private var finished: [Int: UInt64] = [:]

    /// - Parameter emit: gets every non-empty parent tile, encoded, zoom by zoom as they finish.
    /// - Parameter encoding: the parents' encoding (the composite's); tiles added as bytes may be
    ///   in any format ``TileDecoder`` reads.
    public init(lowestZoom: Int, tilePixels: Int, encoding: TileEncoding = .png, emit: @escaping (Tile, [UInt8]) throws -> Void) {
        encoder = encoding.encoder()
        self.lowestZoom = lowestZoom
        self.tilePixels = tilePixels
        self.emit = emit
    }

    /// Add a tile of the stream (encoded bytes). Throws when it comes out of order.
    public func add(_ tile: Tile, encoded: [UInt8]) throws {
        let image = try TileDecoder.decode(encoded).rgba
        guard image.width == tilePixels, image.height == tilePixels else {
            throw PyramidError(.badTileStream, "tile \(tile) is \(image.width) × \(image.height) px; the composite's tiles are \(tilePixels) px")
        }
        try add(tile, pixels: image.pixels)
    }

    /// Add a tile's RGBA pixels.
    public func add(_ tile: Tile, pixels: [UInt8]) throws {
        guard tile.z > lowestZoom, let parent = tile.parent else { return }
        if let g = gathering[tile.z], g.parent != parent { try finish(zoom: tile.z) }
        if let last = finished[tile.z], PMTilesID.id(of: parent) <= last {
            throw PyramidError(.badTileStream, "tile \(tile) comes after its parent was built: tiles must come in tile-id order")
        }
        var g = gathering[tile.z] ?? (parent, [nil, nil, nil, nil])
        g.children[(tile.y & 1) * 2 + (tile.x & 1)] = pixels
        gathering[tile.z] = g
    }

    /// Build the parents still gathering, up to the lowest zoom.
    public func finish() throws {
        while let z = gathering.keys.max() { try finish(zoom: z) }
    }

    private func finish(zoom z: Int) throws {
        guard let g = gathering.removeValue(forKey: z) else { return }
        finished[z] = PMTilesID.id(of: g.parent)
        let p = tilePixels
        let pixels = Downsampler.parent(of: g.children, tilePixels: p)
        guard let data = try pixels.withUnsafeBufferPointer({ try encoder.encode($0.baseAddress!, size: p) }) else { return }
        try emit(g.parent, data)
        try add(g.parent, pixels: pixels)
    }
}
