import Foundation
import TegulaDeflate
import TegulaGeometry

@testable import TegulaTileset

/// Test fixtures made on the spot: tiny valid PNGs, tile lists and metadata.
enum BundleFixtures {
    /// A valid `size`×`size` RGBA PNG filled with one colour (zlib stored blocks, no library).
    static func png(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255, size: Int = 4) -> [UInt8] {
        func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return be32(UInt32(data.count)) + body + be32(CRC32.checksum(body))
        }
        var raw = [UInt8]()
        for _ in 0..<size { raw.append(0); for _ in 0..<size { raw += [r, g, b, a] } }
        var a1: UInt32 = 1, a2: UInt32 = 0
        for x in raw { a1 = (a1 + UInt32(x)) % 65521; a2 = (a2 + a1) % 65521 }
        let n = raw.count
        let zlib: [UInt8] =
            [0x78, 0x01, 1, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            + raw + be32(a2 << 16 | a1)
        let ihdr = be32(UInt32(size)) + be32(UInt32(size)) + [8, 6, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr) + chunk("IDAT", zlib) + chunk("IEND", [])
    }

    /// A distinct PNG per tile (colour from its numbers), so misplaced tiles are caught.
    static func png(for t: Tile) -> [UInt8] {
        png(r: UInt8(t.z * 20 % 256), g: UInt8(t.x % 256), b: UInt8(t.y % 256), a: UInt8(200 + (t.x / 256 + t.y / 256) % 50))
    }

    /// Every tile of zooms `zooms`.
    static func pyramid(_ zooms: ClosedRange<Int>) -> [Tile] {
        zooms.flatMap { z in (0..<(1 << z)).flatMap { x in (0..<(1 << z)).map { Tile(x: x, y: $0, z: z) } } }
    }

    /// Metadata with a footprint and GCP pins in `extra`.
    static func metadata(minZoom: Int = 0, maxZoom: Int, scale: Int = 1) -> TilesetMetadata {
        TilesetMetadata(
            name: "Schagen 1689", format: .png, bounds: GeoBounds(west: -30, south: 20, east: 30, north: 60.5),
            zooms: ZoomRange(min: minZoom, max: maxZoom)!, tileSize: 256 * scale, scale: scale, attribution: "G. van Schagen",
            extra: [
                TilesetMetadata.footprintKey: .object([
                    "type": .string("Polygon"),
                    "coordinates": .array([
                        .array(
                            [[-30, 60], [30, 60.5], [30, 20], [-30.5, 20], [-30, 60]].map { .array($0.map(JSONValue.double)) })
                    ]),
                ]),
                TilesetMetadata.gcpsKey: .array([
                    .object([
                        "name": .string("A"), "lon": .double(-30), "lat": .double(60),
                        "residual_m": .double(1.5),
                    ])
                ]),
            ])
    }
}
