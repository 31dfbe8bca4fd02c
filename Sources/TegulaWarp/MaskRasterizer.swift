import TegulaGeometry

/// Fills a polygon (even–odd rule, pixel centres) into a byte mask of an output block.
enum MaskRasterizer {
    /// `polygon` in output pixel coordinates of the block (x right, y down).
    static func fill(polygon: [(x: Double, y: Double)], width: Int, height: Int,
                     into mask: UnsafeMutablePointer<UInt8>) {
        mask.update(repeating: 0, count: width * height)
        guard polygon.count >= 3 else { return }
        for j in 0..<height {
            for span in EvenOddRule.spans(polygon, y: Double(j) + 0.5, width: width) {
                (mask + j * width + span.lowerBound).update(repeating: 1, count: span.count)
            }
        }
    }
}
