import TegulaGeometry

/// One entry of the top-level `ties:` list: `[MAP_A, [x, y], MAP_B, [x, y]]`, the same place on
/// two scans in their pixels (GDAL's convention: x right, y down from the top-left corner).
/// Map names are resolved against the maps when the pipeline is loaded (``SeriesStep``).
public struct TieSpec: Sendable, Hashable, Codable {
    /// The first map's name.
    public var mapA: String
    /// The place on the first map's scan.
    public var pixelA: PixelPoint
    /// The second map's name.
    public var mapB: String
    /// The place on the second map's scan.
    public var pixelB: PixelPoint

    /// A tie from its parts.
    public init(mapA: String, pixelA: PixelPoint, mapB: String, pixelB: PixelPoint) {
        self.mapA = mapA
        self.pixelA = pixelA
        self.mapB = mapB
        self.pixelB = pixelB
    }

    public init(from decoder: Decoder) throws {
        var c = try decoder.unkeyedContainer()
        func point() throws -> PixelPoint {
            let xy = try c.decode([Double].self)
            guard xy.count == 2 else {
                throw DecodingError.dataCorruptedError(in: c, debugDescription: "a tie's pixel is [x, y], got \(xy.count) numbers")
            }
            return PixelPoint(x: xy[0], y: xy[1])
        }
        mapA = try c.decode(String.self)
        pixelA = try point()
        mapB = try c.decode(String.self)
        pixelB = try point()
        guard c.isAtEnd else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "a tie is [MAP_A, [x, y], MAP_B, [x, y]]: four items, got more")
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.unkeyedContainer()
        try c.encode(mapA)
        try c.encode([pixelA.x, pixelA.y])
        try c.encode(mapB)
        try c.encode([pixelB.x, pixelB.y])
    }
}
