import TegulaScan

/// An 8-bit grey picture of a window of a scan, read through the warp's ``ScanReader`` (so only
/// that window is decoded, at the reduction asked): what the matching engine sees.
struct GreyImage {
    let width: Int
    let height: Int
    var pixels: [UInt8]

    /// The window (`x`, `y`, `width` × `height` full-resolution pixels, inside the scan) reduced
    /// to `bufferWidth` × `bufferHeight`, as luma in whole levels (ITU-R BT.601 weights,
    /// transparent pixels read as white paper: ``Luma``).
    static func read(
        _ reader: any ScanReader, x: Int, y: Int, width: Int, height: Int,
        bufferWidth: Int, bufferHeight: Int
    ) throws -> GreyImage {
        let grey = try Luma.bytes(reader, x: x, y: y, width: width, height: height, bufferWidth: bufferWidth, bufferHeight: bufferHeight)
        return GreyImage(width: bufferWidth, height: bufferHeight, pixels: grey)
    }
}
