import TegulaScan

/// A scan with a margin of transparent pixels (paper, to the matcher) on every side, so a search
/// window around a point near the scan's edge can still be read whole: the overlap of two sheets
/// of a series lies along their edges, often only a collar's width from the scan's border.
/// Pixel (x, y) of the scan is pixel (x + margin, y + margin) here.
final class PaddedScan: ScanReader {
    let base: any ScanReader
    let margin: Int

    init(_ base: any ScanReader, margin: Int) {
        self.base = base
        self.margin = margin
    }

    var width: Int { base.width + 2 * margin }
    var height: Int { base.height + 2 * margin }
    var isOpaque: Bool { false }
    var hasOwnReductions: Bool { false }

    /// The part of the window inside the scan read from it, the rest transparent; a reduced read
    /// is the full-resolution window box-averaged.
    func readRGBA(
        x: Int, y: Int, width w: Int, height h: Int, bufferWidth bw: Int, bufferHeight bh: Int,
        into out: UnsafeMutablePointer<UInt8>
    ) throws {
        guard bw == w, bh == h else {
            var full = [UInt8](repeating: 0, count: w * h * 4)
            try full.withUnsafeMutableBufferPointer {
                try readRGBA(x: x, y: y, width: w, height: h, bufferWidth: w, bufferHeight: h, into: $0.baseAddress!)
            }
            TileScanReader.areaAverage(
                full, width: w, height: h, x0: 0, x1: Double(w), y0: 0, y1: Double(h), into: out, width: bw, height: bh)
            return
        }
        out.initialize(repeating: 0, count: w * h * 4)
        let x0 = max(x, margin), x1 = min(x + w, margin + base.width)
        let y0 = max(y, margin), y1 = min(y + h, margin + base.height)
        guard x0 < x1, y0 < y1 else { return }
        let iw = x1 - x0, ih = y1 - y0
        var inside = [UInt8](repeating: 0, count: iw * ih * 4)
        try inside.withUnsafeMutableBufferPointer {
            try base.readRGBA(x: x0 - margin, y: y0 - margin, width: iw, height: ih, bufferWidth: iw, bufferHeight: ih, into: $0.baseAddress!)
        }
        inside.withUnsafeBufferPointer { p in
            for row in 0..<ih {
                (out + ((y0 - y + row) * w + (x0 - x)) * 4).update(from: p.baseAddress! + row * iw * 4, count: iw * 4)
            }
        }
    }
}
