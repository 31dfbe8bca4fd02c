import TegulaIIIF
import TegulaScan

/// Windows of an IIIF image as RGBA, for one worker: at a reduction, from the coarsest scale
/// factor the server lists that keeps full detail (the largest at most the read's reduction, as
/// GDAL picks an overview), and only the tiles the window touches.
final class IIIFScanReader: ScanReader {
    let scan: IIIFScan
    var width: Int { scan.width }
    var height: Int { scan.height }
    /// Not claimed opaque: a PNG answer may carry alpha, which is kept in the pixels, so the
    /// reduction takes its alpha-weighted path (slower, right for every answer).
    var isOpaque: Bool { false }
    /// The server's scale factors are the reduced copies.
    var hasOwnReductions: Bool { true }

    init(scan: IIIFScan) { self.scan = scan }

    func readRGBA(
        x: Int, y: Int, width w: Int, height h: Int, bufferWidth bw: Int, bufferHeight bh: Int,
        into out: UnsafeMutablePointer<UInt8>
    ) throws {
        let grid = scan.service.grid
        let s = bw >= w && bh >= h ? 1 : grid.scaleFactor(forDownsampling: min(Double(w) / Double(bw), Double(h) / Double(bh)))
        // The window on the grid of scale factor s: cells of s × s full-resolution pixels.
        let gx0 = x / s, gy0 = y / s
        let gx1 = min((x + w + s - 1) / s, (width + s - 1) / s), gy1 = min((y + h + s - 1) / s, (height + s - 1) / s)
        let gw = gx1 - gx0, gh = gy1 - gy0
        let direct = s == 1 && bw == w && bh == h
        let assembled = direct ? out : UnsafeMutablePointer<UInt8>.allocate(capacity: gw * gh * 4)
        defer { if !direct { assembled.deallocate() } }
        if !direct { assembled.update(repeating: 0, count: gw * gh * 4) }
        for t in grid.tiles(covering: x, y, w, h, scaleFactor: s, imageWidth: width, imageHeight: height) {
            let image = try scan.tile(t)
            // The tile's cells on the grid; a 2.x answer may be a row short or long (`w,` sizes).
            let tx = t.x / s, ty = t.y / s
            let cx0 = max(gx0, tx), cx1 = min(gx1, tx + min(image.width, t.size.width))
            let cy0 = max(gy0, ty), cy1 = min(gy1, ty + min(image.height, t.size.height))
            guard cx0 < cx1, cy0 < cy1 else { continue }
            image.pixels.withUnsafeBufferPointer { src in
                for cy in cy0..<cy1 {
                    (assembled + ((cy - gy0) * gw + (cx0 - gx0)) * 4)
                        .update(from: src.baseAddress! + ((cy - ty) * image.width + (cx0 - tx)) * 4, count: (cx1 - cx0) * 4)
                }
            }
        }
        guard !direct else { return }
        Self.resample(
            assembled, width: gw, height: gh, originX: gx0, originY: gy0, scale: s,
            window: (x, y, w, h), into: out, bufferWidth: bw, bufferHeight: bh)
    }

    /// The window (`x`, `y`, `w` × `h` full-resolution pixels) from `src` (cells of `scale`
    /// pixels from cell (`originX`, `originY`)) into `bw` × `bh`: each output pixel the mean of
    /// the cells its footprint covers (at least the one under its centre), weighted by alpha
    /// (premultiplied), so transparency never darkens.
    static func resample(
        _ src: UnsafePointer<UInt8>, width sw: Int, height sh: Int, originX: Int, originY: Int, scale s: Int,
        window: (x: Int, y: Int, w: Int, h: Int), into out: UnsafeMutablePointer<UInt8>,
        bufferWidth bw: Int, bufferHeight bh: Int
    ) {
        func span(_ i: Int, origin: Int, start: Int, length: Int, buffer: Int, cells: Int) -> Range<Int> {
            let a = Double(start) + Double(i) * Double(length) / Double(buffer)
            let b = Double(start) + Double(i + 1) * Double(length) / Double(buffer)
            var lo = Int((a / Double(s)).rounded(.toNearestOrAwayFromZero)) - origin
            var hi = Int((b / Double(s)).rounded(.toNearestOrAwayFromZero)) - origin
            if hi <= lo { lo = Int(((a + b) / 2 / Double(s)).rounded(.down)) - origin; hi = lo + 1 }
            lo = min(max(lo, 0), cells - 1)
            hi = min(max(hi, lo + 1), cells)
            return lo..<hi
        }
        let columns = (0..<bw).map { span($0, origin: originX, start: window.x, length: window.w, buffer: bw, cells: sw) }
        for j in 0..<bh {
            let rows = span(j, origin: originY, start: window.y, length: window.h, buffer: bh, cells: sh)
            for i in 0..<bw {
                var r = 0, g = 0, b = 0, sa = 0, n = 0
                for cy in rows {
                    var p = src + (cy * sw + columns[i].lowerBound) * 4
                    for _ in columns[i] {
                        let a = Int(p[3])
                        r += a * Int(p[0]); g += a * Int(p[1]); b += a * Int(p[2]); sa += a; n += 1
                        p += 4
                    }
                }
                let q = out + (j * bw + i) * 4
                if sa == 0 {
                    q[0] = 0; q[1] = 0; q[2] = 0; q[3] = 0
                } else {
                    q[0] = UInt8((r + sa / 2) / sa); q[1] = UInt8((g + sa / 2) / sa)
                    q[2] = UInt8((b + sa / 2) / sa); q[3] = UInt8((sa + n / 2) / n)
                }
            }
        }
    }
}
