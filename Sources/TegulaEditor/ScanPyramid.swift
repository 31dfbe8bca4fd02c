import Foundation
import TegulaCodec
import TegulaGDAL
import TegulaSupport

/// The raw scan as deep-zoom tiles in pixel space, for Leaflet's `L.CRS.Simple`: at the top
/// zoom ``maxZoom`` one screen pixel is one scan pixel, each zoom below halves it. The scan is
/// read once into memory at full size and halved level by level (box filter); tiles are cut
/// from the levels on request, encoded as JPEG and kept.
public final class ScanPyramid: @unchecked Sendable {
    /// Tile side in screen pixels.
    public static let tileSize = 256
    /// Scan width and height in pixels.
    public let width: Int
    public let height: Int
    /// The zoom at which one screen pixel is one scan pixel.
    public let maxZoom: Int
    /// RGB levels, full size first.
    private let levels: [(width: Int, height: Int, rgb: [UInt8])]
    private let made = Locked<[String: [UInt8]]>([:])

    /// Reads the scan's first three bands (or its one band as grey); an unreadable scan is a
    /// ``EditorError`` naming it.
    public init(path: String) throws {
        let ds: Dataset
        do {
            ds = try Dataset(path: path)
        } catch {
            throw EditorError(.unreadableInput, at: path, "cannot read the scan: \(error)")
        }
        // Held whole, as RGB plus its halvings: refused from the header before allocating.
        do {
            try RasterLimits.checkBands(ds)
            try RasterLimits.checkHeld(ds, bytesPerPixel: 4, for: "the editor (RGB and its halvings)",
                                       instead: "place the GCPs on a reduced copy (gdal_translate -outsize 50% 50%) and scale them")
        } catch let e as GDALError {
            throw EditorError(.unreadableInput, at: path, e.message)
        }
        do { try ds.verifyReadable() } catch {
            throw EditorError(.unreadableInput, at: path, "cannot read the scan: \(error)")
        }
        let w = ds.width, h = ds.height
        width = w
        height = h
        let bands = ds.bandCount >= 3 ? [1, 2, 3] : [1, 1, 1]
        var full = [UInt8](repeating: 0, count: w * h * 3)
        do {
            try full.withUnsafeMutableBufferPointer { p in
                try ds.readBytes(x: 0, y: 0, width: w, height: h, bands: bands, into: p.baseAddress!)
            }
        } catch {
            throw EditorError(.unreadableInput, at: path, "cannot read the scan's pixels: \(error)")
        }
        var levels: [(width: Int, height: Int, rgb: [UInt8])] = [(w, h, full)]
        while let last = levels.last, max(last.width, last.height) > Self.tileSize {
            let half = Self.half(last.width, last.height, last.rgb)
            levels.append((half.0, half.1, half.2))
        }
        self.levels = levels
        maxZoom = levels.count - 1
    }

    /// A level halved: each pixel the mean of up to 2 × 2.
    static func half(_ w: Int, _ h: Int, _ rgb: [UInt8]) -> (Int, Int, [UInt8]) {
        let hw = (w + 1) / 2, hh = (h + 1) / 2
        var out = [UInt8](repeating: 0, count: hw * hh * 3)
        for y in 0..<hh {
            let y0 = 2 * y, y1 = min(2 * y + 1, h - 1)
            for x in 0..<hw {
                let x0 = 2 * x, x1 = min(2 * x + 1, w - 1)
                for c in 0..<3 {
                    let s = Int(rgb[(y0 * w + x0) * 3 + c]) + Int(rgb[(y0 * w + x1) * 3 + c])
                        + Int(rgb[(y1 * w + x0) * 3 + c]) + Int(rgb[(y1 * w + x1) * 3 + c])
                    out[(y * hw + x) * 3 + c] = UInt8((s + 2) / 4)
                }
            }
        }
        return (hw, hh, out)
    }

    /// The JPEG tile at zoom `z`, column `x`, row `y`; nil outside the scan. Past the scan's
    /// edge a tile is filled with light grey.
    public func tile(z: Int, x: Int, y: Int) throws -> [UInt8]? {
        guard (0...maxZoom).contains(z), x >= 0, y >= 0 else { return nil }
        let level = levels[maxZoom - z]
        let n = Self.tileSize
        guard x * n < level.width, y * n < level.height else { return nil }
        let key = "\(z)/\(x)/\(y)"
        if let hit = made.withLock({ $0[key] }) { return hit }
        var px = [UInt8](repeating: 0xDD, count: n * n * 3)
        let w = min(n, level.width - x * n), h = min(n, level.height - y * n)
        for row in 0..<h {
            let src = ((y * n + row) * level.width + x * n) * 3
            px.replaceSubrange(row * n * 3..<(row * n + w) * 3, with: level.rgb[src..<src + w * 3])
        }
        let jpeg = try px.withUnsafeBufferPointer { try JPEGEncoder(quality: 85).encode(pixels: $0.baseAddress!, width: n, height: n, channels: 3) }
        made.withLock { $0[key] = jpeg }
        return jpeg
    }
}
