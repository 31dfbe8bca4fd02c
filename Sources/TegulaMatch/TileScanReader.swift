import Foundation
import TegulaCodec
import TegulaGeometry
import TegulaScan
import TegulaSupport
import TegulaTileset

/// One zoom of a Web Mercator tileset read as a scan: the pixels of the tiles covering a window
/// of that zoom's global pixel grid (``PixelWindow``), so the matcher reads a tileset as it reads
/// any image. Only the tiles a read touches are decoded, and decoded tiles are kept in a small
/// LRU, so memory does not grow with the tileset. A reduced read comes from a lower zoom of the
/// tileset (its own reductions), as a file's overviews serve one. Missing tiles read as
/// transparent.
public final class TileScanReader: ScanReader {
    /// The tiles, in XYZ numbering.
    public let tiles: any TileReader
    /// The window of the zoom read, on its global pixel grid.
    public let window: PixelWindow
    /// The lowest zoom a reduced read may come from.
    public let minZoom: Int
    /// Pixels per tile side as stored (tile size × scale).
    public let tilePixels: Int
    private let cache: LRUCache<Tile, DecodedTile>
    private let name: String

    /// A decoded tile's RGBA, or none for a tile the tileset does not hold.
    struct DecodedTile: Sendable {
        let pixels: [UInt8]?
        init(_ pixels: [UInt8]?) { self.pixels = pixels }
    }

    /// Decoded tiles kept at most, in bytes, by default: 64 tiles of 512 × 512.
    public static let defaultCacheBytes = 64 << 20

    /// Reads `window` (its zoom and tile pixels) from `tiles`, reductions from zooms down to
    /// `minZoom`; `name` names the tileset in errors.
    public init(tiles: any TileReader, window: PixelWindow, minZoom: Int, name: String, cacheBytes: Int = TileScanReader.defaultCacheBytes) {
        self.tiles = tiles
        self.window = window
        self.minZoom = min(minZoom, window.zoom)
        self.tilePixels = window.tileSize
        self.name = name
        cache = LRUCache(byteBudget: cacheBytes)
    }

    /// The window's size in pixels of its zoom.
    public var width: Int { window.width }
    public var height: Int { window.height }
    /// Tiles may be transparent outside the map, and missing tiles are.
    public var isOpaque: Bool { false }
    /// A reduced read comes from a lower zoom when the tileset has one.
    public var hasOwnReductions: Bool { minZoom < window.zoom }
    /// Tiles decoded and kept now, in bytes (at most the cache's budget).
    public var cachedBytes: Int { cache.byteCount }

    /// The window's pixels at (`x`, `y`), `w` × `h`, into `bw` × `bh` RGBA: copied from the tiles
    /// at full resolution, else box-averaged from the lowest zoom that has a pixel per buffer pixel.
    public func readRGBA(
        x: Int, y: Int, width w: Int, height h: Int, bufferWidth bw: Int, bufferHeight bh: Int,
        into out: UnsafeMutablePointer<UInt8>
    ) throws {
        // The lowest zoom that still has a pixel per buffer pixel.
        let reduction = min(Double(w) / Double(bw), Double(h) / Double(bh))
        var k = 0
        while window.zoom - k > minZoom, Double(1 << (k + 1)) <= reduction { k += 1 }
        let level = window.zoom - k, s = Double(1 << k)
        // The window on that level's grid, in (fractional) pixels.
        let x0 = Double(window.column + x) / s, x1 = Double(window.column + x + w) / s
        let y0 = Double(window.row + y) / s, y1 = Double(window.row + y + h) / s
        if k == 0, bw == w, bh == h {
            try region(level: level, column: window.column + x, row: window.row + y, width: w, height: h, into: out)
            return
        }
        let c0 = Int(floor(x0)), r0 = Int(floor(y0))
        let sw = max(1, Int(ceil(x1)) - c0), sh = max(1, Int(ceil(y1)) - r0)
        var source = [UInt8](repeating: 0, count: sw * sh * 4)
        try source.withUnsafeMutableBufferPointer {
            try region(level: level, column: c0, row: r0, width: sw, height: sh, into: $0.baseAddress!)
        }
        Self.areaAverage(
            source, width: sw, height: sh, x0: x0 - Double(c0), x1: x1 - Double(c0), y0: y0 - Double(r0), y1: y1 - Double(r0),
            into: out, width: bw, height: bh)
    }

    /// The `width` × `height` pixels at (`column`, `row`) of zoom `level`'s global grid, as RGBA;
    /// transparent where the tileset has no tile.
    func region(level: Int, column: Int, row: Int, width: Int, height: Int, into out: UnsafeMutablePointer<UInt8>) throws {
        let t = tilePixels, last = (1 << level) - 1
        out.initialize(repeating: 0, count: width * height * 4)
        let tx0 = Int(floor(Double(column) / Double(t))), tx1 = Int(floor(Double(column + width - 1) / Double(t)))
        let ty0 = Int(floor(Double(row) / Double(t))), ty1 = Int(floor(Double(row + height - 1) / Double(t)))
        let xs = max(0, tx0), xe = min(last, tx1), ys = max(0, ty0), ye = min(last, ty1)
        guard xs <= xe, ys <= ye else { return }
        for ty in ys...ye {
            for tx in xs...xe {
                guard let pixels = try decoded(Tile(x: tx, y: ty, z: level)).pixels else { continue }
                // The part of this tile inside the region.
                let ax = max(column, tx * t), bx = min(column + width, (tx + 1) * t)
                let ay = max(row, ty * t), by = min(row + height, (ty + 1) * t)
                guard ax < bx, ay < by else { continue }
                pixels.withUnsafeBufferPointer { p in
                    for gy in ay..<by {
                        let from = ((gy - ty * t) * t + (ax - tx * t)) * 4
                        let to = ((gy - row) * width + (ax - column)) * 4
                        (out + to).update(from: p.baseAddress! + from, count: (bx - ax) * 4)
                    }
                }
            }
        }
    }

    /// The tile decoded to RGBA, from the cache when it was decoded lately.
    func decoded(_ tile: Tile) throws -> DecodedTile {
        if let kept = cache.value(for: tile) { return kept }
        var pixels: [UInt8]?
        if let bytes = try tiles.tile(tile) {
            let image: RGBAImage
            do { image = try TileDecoder.decode(bytes).rgba } catch {
                throw MatchError(.unreadableReference, at: name, "tile \(tile) does not decode: \(error)")
            }
            guard image.width == tilePixels, image.height == tilePixels else {
                throw MatchError(
                    .unreadableReference, at: name,
                    "tile \(tile) is \(image.width) × \(image.height) pixels; the tileset's metadata says \(tilePixels)")
            }
            pixels = image.pixels
        }
        let entry = DecodedTile(pixels)
        cache.insert(entry, cost: (pixels?.count ?? 0) + 64, for: tile)
        return entry
    }

    /// The box average of the part [`x0`, `x1`) × [`y0`, `y1`) of an RGBA picture (fractional
    /// edges weighted by their share), premultiplied by alpha, into `width` × `height` pixels.
    static func areaAverage(
        _ source: [UInt8], width sw: Int, height sh: Int, x0: Double, x1: Double, y0: Double, y1: Double,
        into out: UnsafeMutablePointer<UInt8>, width bw: Int, height bh: Int
    ) {
        let columns = weights(from: x0, to: x1, count: bw, limit: sw), rows = weights(from: y0, to: y1, count: bh, limit: sh)
        // Rows of the source averaged across into `bw` premultiplied pixels.
        var across = [Float](repeating: 0, count: bw * sh * 4)
        for r in 0..<sh {
            for (i, column) in columns.enumerated() {
                var acc: (Float, Float, Float, Float) = (0, 0, 0, 0)
                for (c, wt) in column {
                    let p = (r * sw + c) * 4, a = Float(source[p + 3]) * wt
                    acc.0 += Float(source[p]) * a
                    acc.1 += Float(source[p + 1]) * a
                    acc.2 += Float(source[p + 2]) * a
                    acc.3 += a
                }
                let q = (r * bw + i) * 4
                across[q] = acc.0; across[q + 1] = acc.1; across[q + 2] = acc.2; across[q + 3] = acc.3
            }
        }
        for (j, row) in rows.enumerated() {
            for i in 0..<bw {
                var acc: (Float, Float, Float, Float) = (0, 0, 0, 0)
                for (r, wt) in row {
                    let q = (r * bw + i) * 4
                    acc.0 += across[q] * wt; acc.1 += across[q + 1] * wt; acc.2 += across[q + 2] * wt; acc.3 += across[q + 3] * wt
                }
                let o = (j * bw + i) * 4
                guard acc.3 > 0 else { out[o] = 0; out[o + 1] = 0; out[o + 2] = 0; out[o + 3] = 0; continue }
                out[o] = UInt8(min(255, (acc.0 / acc.3).rounded()))
                out[o + 1] = UInt8(min(255, (acc.1 / acc.3).rounded()))
                out[o + 2] = UInt8(min(255, (acc.2 / acc.3).rounded()))
                out[o + 3] = UInt8(min(255, acc.3.rounded()))
            }
        }
    }

    /// For each of `count` equal parts of [`from`, `to`), the source pixels it overlaps and the
    /// share of the part each covers.
    static func weights(from: Double, to: Double, count: Int, limit: Int) -> [[(Int, Float)]] {
        let step = (to - from) / Double(count)
        return (0..<count).map { i in
            let a = from + Double(i) * step, b = a + step
            var parts: [(Int, Float)] = []
            var p = Int(floor(a))
            while Double(p) < b, p < limit {
                let share = (min(b, Double(p + 1)) - max(a, Double(p))) / step
                if p >= 0, share > 0 { parts.append((p, Float(share))) }
                p += 1
            }
            return parts.isEmpty ? [(min(max(0, Int(floor(a))), limit - 1), Float(1))] : parts
        }
    }
}
