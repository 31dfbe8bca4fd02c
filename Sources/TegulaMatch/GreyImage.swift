import TegulaScan

/// An 8-bit grey picture of a window of a scan, read through the warp's ``ScanReader`` (so only
/// that window is decoded, at the reduction asked): what the matching engine sees.
struct GreyImage {
    let width: Int
    let height: Int
    var pixels: [UInt8]

    /// The window (`x`, `y`, `width` × `height` full-resolution pixels, inside the scan) reduced
    /// to `bufferWidth` × `bufferHeight`, as luma (ITU-R BT.601 weights); transparent pixels read
    /// as white paper.
    static func read(
        _ reader: any ScanReader, x: Int, y: Int, width: Int, height: Int,
        bufferWidth: Int, bufferHeight: Int
    ) throws -> GreyImage {
        let count = bufferWidth * bufferHeight
        var rgba = [UInt8](repeating: 0, count: count * 4)
        try rgba.withUnsafeMutableBufferPointer {
            try reader.readRGBA(
                x: x, y: y, width: width, height: height, bufferWidth: bufferWidth, bufferHeight: bufferHeight,
                into: $0.baseAddress!)
        }
        var grey = [UInt8](repeating: 0, count: count)
        for i in 0..<count {
            let r = Int(rgba[i * 4]), g = Int(rgba[i * 4 + 1]), b = Int(rgba[i * 4 + 2]), a = Int(rgba[i * 4 + 3])
            let luma = (r * 299 + g * 587 + b * 114 + 500) / 1000
            grey[i] = UInt8((luma * a + 255 * (255 - a) + 127) / 255)
        }
        return GreyImage(width: bufferWidth, height: bufferHeight, pixels: grey)
    }
}
