/// Fills a polygon (even–odd rule, pixel centres) into a byte mask of an output block.
enum MaskRasterizer {
    /// `polygon` in output pixel coordinates of the block (x right, y down). Only the pixels
    /// `columns` × `rows` of the block are filled (all when nil), into a mask of that rectangle.
    static func fill(polygon: [(x: Double, y: Double)], width: Int, height: Int,
                     into mask: UnsafeMutablePointer<UInt8>, columns: Range<Int>? = nil, rows: Range<Int>? = nil) {
        let columns = columns ?? 0..<width, rows = rows ?? 0..<height
        let stride = columns.count
        mask.update(repeating: 0, count: stride * rows.count)
        let n = polygon.count
        guard n >= 3 else { return }
        var crossings: [Double] = []
        for j in rows {
            let cy = Double(j) + 0.5
            crossings.removeAll(keepingCapacity: true)
            for k in 0..<n {
                let a = polygon[k], b = polygon[(k + 1) % n]
                if (a.y <= cy) != (b.y <= cy) {
                    crossings.append(a.x + (cy - a.y) / (b.y - a.y) * (b.x - a.x))
                }
            }
            crossings.sort()
            var k = 0
            while k + 1 < crossings.count {
                // Pixels whose centre lies between the crossings.
                let lo = max(columns.lowerBound, Int((crossings[k] - 0.5).rounded(.up)))
                let hi = min(columns.upperBound - 1, Int((crossings[k + 1] - 0.5).rounded(.up)) - 1)
                if lo <= hi {
                    (mask + (j - rows.lowerBound) * stride + lo - columns.lowerBound).update(repeating: 1, count: hi - lo + 1)
                }
                k += 2
            }
        }
    }
}
