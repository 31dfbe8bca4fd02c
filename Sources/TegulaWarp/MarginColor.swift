import TegulaGeometry
import TegulaScan

/// `remove_color: {color: auto}`: the paper colour of a scan, measured as the dominant colour of
/// its margin — the pixels outside its mask (the collar between the neatline and the scan's
/// edge), or, without a mask or with one that leaves under 1 % of the scan outside, the band
/// along the scan's edge 1/20 of its shorter side wide. The scan is read once, reduced to at most
/// ``side`` pixels on its longer side (GDAL's average); opaque pixels fall into 32 × 32 × 32
/// bins and the colour is the mean of the fullest bin (ties to the lowest bin), so it depends on
/// the scan and its mask alone.
public enum MarginColor {
    /// Longer side of the reduced copy, in pixels.
    public static let side = 512

    /// The dominant colour of the margin of `raster` (the scan `name` names, a file or an IIIF
    /// image) around `mask` (scan pixels).
    public static func dominant(in raster: any ScanReader, name: String, mask: [(x: Double, y: Double)]?) throws -> RGBColor {
        let w = raster.width, h = raster.height
        let scale = max(1, Double(max(w, h)) / Double(side))
        let bw = max(1, Int((Double(w) / scale).rounded())), bh = max(1, Int((Double(h) / scale).rounded()))
        var pixels = [UInt8](repeating: 0, count: bw * bh * 4)
        try pixels.withUnsafeMutableBufferPointer {
            try raster.readRGBA(x: 0, y: 0, width: w, height: h, bufferWidth: bw, bufferHeight: bh, into: $0.baseAddress!)
        }
        let sx = Double(w) / Double(bw), sy = Double(h) / Double(bh)
        // Outside the mask, judged at each reduced pixel's centre in scan pixels.
        var margin = [Bool](repeating: false, count: bw * bh)
        var outside = 0
        if let mask, mask.count >= 3 {
            for j in 0..<bh {
                for i in 0..<bw where !EvenOddRule.contains(mask, x: (Double(i) + 0.5) * sx, y: (Double(j) + 0.5) * sy) {
                    margin[j * bw + i] = true
                    outside += 1
                }
            }
        }
        if outside * 100 < bw * bh {
            let band = max(1, min(bw, bh) / 20)
            for j in 0..<bh { for i in 0..<bw { margin[j * bw + i] = i < band || j < band || i >= bw - band || j >= bh - band } }
        }
        var counts = [Int](repeating: 0, count: 32 * 32 * 32)
        var sums = [Int](repeating: 0, count: 32 * 32 * 32 * 3)
        for k in 0..<(bw * bh) where margin[k] && pixels[k * 4 + 3] == 255 {
            let r = Int(pixels[k * 4]), g = Int(pixels[k * 4 + 1]), b = Int(pixels[k * 4 + 2])
            let bin = (r >> 3) << 10 | (g >> 3) << 5 | (b >> 3)
            counts[bin] += 1
            sums[bin * 3] += r; sums[bin * 3 + 1] += g; sums[bin * 3 + 2] += b
        }
        var best = 0
        for k in counts.indices where counts[k] > counts[best] { best = k }
        let n = counts[best]
        guard n > 0 else {
            throw WarpError(
                .unreadable, at: name, "remove_color: auto found no opaque pixel in the scan's margin; give the paper colour as \"#RRGGBB\"")
        }
        func mean(_ c: Int) -> UInt8 { UInt8((sums[best * 3 + c] + n / 2) / n) }
        return RGBColor(red: mean(0), green: mean(1), blue: mean(2))
    }
}
