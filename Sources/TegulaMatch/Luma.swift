import TegulaScan

/// How the matching engine turns a scan's colours into grey: luma with the ITU-R BT.601 weights
/// (299, 587 and 114 thousandths of red, green and blue), a transparent pixel read as white paper.
/// One place for both pictures the engine correlates: ``GreyImage``'s bytes (SIFT's, rounded
/// twice, as they always were) and ``RealGreyImage``'s real levels (the templates').
enum Luma {
    /// The window (`x`, `y`, `width` × `height` full-resolution pixels, inside the scan) reduced
    /// to `bufferWidth` × `bufferHeight`: the luma rounded to a whole level, then laid over white
    /// paper by its alpha and rounded again.
    static func bytes(_ reader: any ScanReader, x: Int, y: Int, width: Int, height: Int, bufferWidth: Int, bufferHeight: Int) throws -> [UInt8] {
        let rgba = try read(reader, x: x, y: y, width: width, height: height, bufferWidth: bufferWidth, bufferHeight: bufferHeight)
        var grey = [UInt8](repeating: 0, count: bufferWidth * bufferHeight)
        for i in grey.indices {
            let r = Int(rgba[i * 4]), g = Int(rgba[i * 4 + 1]), b = Int(rgba[i * 4 + 2]), a = Int(rgba[i * 4 + 3])
            let luma = (r * 299 + g * 587 + b * 114 + 500) / 1000
            grey[i] = UInt8((luma * a + 255 * (255 - a) + 127) / 255)
        }
        return grey
    }

    /// The window (`x`, `y`, `width` × `height` pixels, inside the scan) at full resolution: the
    /// luma over white paper by its alpha, not rounded.
    static func reals(_ reader: any ScanReader, x: Int, y: Int, width: Int, height: Int) throws -> [Float] {
        let rgba = try read(reader, x: x, y: y, width: width, height: height, bufferWidth: width, bufferHeight: height)
        var grey = [Float](repeating: 0, count: width * height)
        for i in grey.indices {
            let r = Float(rgba[i * 4]), g = Float(rgba[i * 4 + 1]), b = Float(rgba[i * 4 + 2]), a = Float(rgba[i * 4 + 3])
            let luma = (r * 299 + g * 587 + b * 114) / 1000
            grey[i] = (luma * a + 255 * (255 - a)) / 255
        }
        return grey
    }

    /// The window's pixels, four bytes each (red, green, blue, alpha).
    private static func read(_ reader: any ScanReader, x: Int, y: Int, width: Int, height: Int, bufferWidth: Int, bufferHeight: Int) throws -> [UInt8]
    {
        var rgba = [UInt8](repeating: 0, count: bufferWidth * bufferHeight * 4)
        try rgba.withUnsafeMutableBufferPointer {
            try reader.readRGBA(
                x: x, y: y, width: width, height: height, bufferWidth: bufferWidth, bufferHeight: bufferHeight,
                into: $0.baseAddress!)
        }
        return rgba
    }
}
