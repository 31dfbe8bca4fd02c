import TegulaGeometry

/// Fills a polygon (even–odd rule, pixel centres) into a byte mask of an output block.
enum MaskRasterizer {
    /// `polygon` in output pixel coordinates of the block (x right, y down). Only the pixels
    /// `columns` × `rows` of the block are filled (all when nil), into a mask of that rectangle;
    /// a pixel's value does not depend on the rectangle asked for.
    static func fill(
        polygon: [(x: Double, y: Double)], width: Int, height: Int,
        into mask: UnsafeMutablePointer<UInt8>, columns: Range<Int>? = nil, rows: Range<Int>? = nil
    ) {
        let columns = columns ?? 0..<width, rows = rows ?? 0..<height
        let stride = columns.count
        mask.update(repeating: 0, count: stride * rows.count)
        guard polygon.count >= 3 else { return }
        for j in rows {
            for span in EvenOddRule.spans(polygon, y: Double(j) + 0.5, width: width) {
                let lo = max(span.lowerBound, columns.lowerBound), hi = min(span.upperBound, columns.upperBound)
                if lo < hi { (mask + (j - rows.lowerBound) * stride + lo - columns.lowerBound).update(repeating: 1, count: hi - lo) }
            }
        }
    }
}
