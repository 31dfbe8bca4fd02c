import Foundation
import TegulaBundle
import TegulaCodec
import TegulaGeometry
import TegulaSupport

/// One pyramid from several tilesets: where tilesets overlap, later ones are drawn over earlier
/// ones with the Porter–Duff "over" operator on straight alpha; a tile only one layer has is
/// copied as it is.
public enum Compositor {
    /// What was written: tiles, how many were blended from several layers, bytes.
    public struct Result: Sendable { public var tiles = 0; public var blended = 0; public var bytes = 0 }

    /// Blend `layers` (tilesets of PNG, JPEG or WebP tiles, bottom first) into a new tileset at
    /// `output`, in `options.format` (PNG by default). A tile one layer alone has is copied when it
    /// already is in that format (PNG8 and `auto` always re-encode), else decoded and encoded.
    public static func run(layers: [String], output: String, name: String, options: TileOptions, jobs: Int,
                    progress: (@Sendable (Int, Int) -> Void)?) throws -> Result {
        let readers = try layers.map { try Tileset.openReader(at: $0) }
        var union = Set<Tile>()
        for l in layers { union.formUnion(Tileset.existingTiles(at: l)) }
        let tiles = union.sorted { ($0.z, $0.y, $0.x) < ($1.z, $1.y, $1.x) }
        guard !tiles.isEmpty else { throw PyramidError(.emptyFootprint, at: output, "the composite has no tiles: the maps' tilesets are empty") }
        try FileManager.default.createDirectory(atPath: (output as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let format = options.format ?? .default
        let writer = try Tileset.openWriter(at: output, format: format, layout: options.layout ?? .xyz, scale: options.scale ?? 1)
        let result = Locked(Result())
        let done = Locked(0)
        let quality = options.quality
        try ParallelWork.run(jobs: jobs, count: tiles.count, makeState: { _ in TileEncoder(format: format, quality: quality) },
                             process: { encoder, i in
            let t = tiles[i]
            let stack = try readers.compactMap { try $0.tile(t) }
            let data: [UInt8]
            let blended = stack.count > 1
            if stack.count == 1, TileFormat(sniffing: stack[0]) == format {
                data = stack[0]
            } else {
                var bottom = try TileDecoder.decode(stack[0]).rgba
                for top in stack.dropFirst() { over(try TileDecoder.decode(top).rgba, onto: &bottom) }
                precondition(bottom.width == bottom.height, "tiles are square")
                guard let encoded = try bottom.pixels.withUnsafeBufferPointer({
                    try encoder.encode($0.baseAddress!, size: bottom.width)
                }) else { return }  // every layer transparent here: no tile, as the pyramid writes none
                data = encoded
            }
            try writer.write(t, data: data)
            result.withLock { $0.tiles += 1; $0.bytes += data.count; if blended { $0.blended += 1 } }
            let n = done.withLock { $0 += 1; return $0 }
            progress?(n, tiles.count)
        })
        let metas = readers.map(\.metadata)
        var b = metas[0].bounds
        for m in metas.dropFirst() {
            b = GeoBounds(west: min(b.west, m.bounds.west), south: min(b.south, m.bounds.south),
                          east: max(b.east, m.bounds.east), north: max(b.north, m.bounds.north))
        }
        let minZ = metas.map(\.minZoom).min()!, maxZ = metas.map(\.maxZoom).max()!
        try writer.finish(metadata: TilesetMetadata(name: options.name ?? name, format: format, bounds: b, minZoom: minZ, maxZoom: maxZ,
                                                    tileSize: options.tileSize ?? 256, scale: options.scale ?? 1,
                                                    attribution: options.attribution,
                                                    description: "composite of \(layers.count) maps, later over earlier"))
        return result.withLock { $0 }
    }

    /// `top` over `bottom` (both RGBA, straight alpha, same size), in place.
    static func over(_ top: RGBAImage, onto bottom: inout RGBAImage) {
        precondition(top.width == bottom.width && top.height == bottom.height, "tiles of different sizes")
        top.pixels.withUnsafeBufferPointer { t in
            bottom.pixels.withUnsafeMutableBufferPointer { b in
                for i in stride(from: 0, to: t.count, by: 4) {
                    let ta = Int(t[i + 3])
                    if ta == 255 { b[i] = t[i]; b[i + 1] = t[i + 1]; b[i + 2] = t[i + 2]; b[i + 3] = 255; continue }
                    if ta == 0 { continue }
                    let ba = Int(b[i + 3])
                    // out_a = ta + ba (1 − ta), in units of 255²; colours weighted by their alpha shares.
                    let wb = ba * (255 - ta)
                    let oa = ta * 255 + wb
                    for c in 0..<3 {
                        b[i + c] = UInt8((Int(t[i + c]) * ta * 255 + Int(b[i + c]) * wb + oa / 2) / oa)
                    }
                    b[i + 3] = UInt8((oa + 127) / 255)
                }
            }
        }
    }
}
