import CMatch
import TegulaGeometry
import TegulaScan

/// A grey picture of a window of a scan in real levels: ``GreyImage``'s luma before it is rounded
/// to a byte, for every template correlation of the matching engine (``PointRefiner`` placing a
/// point to a fraction of a pixel, ``SheetLocator`` a strip of a sheet on its neighbour). Where the picture is smooth (a strip of land whose grey changes by a level
/// or two across a template), whole levels cut it into a staircase, and a template warped to a
/// fraction of a pixel and rounded again steps differently from the window it is sought in: on
/// the 64-sheet bench series, the peak at a known sub-pixel offset missed by 0.151 px across a
/// strip and 0.109 px along it on average in bytes, 0.122 and 0.080 px in real levels (numpy).
struct RealGreyImage {
    let width: Int
    let height: Int
    var pixels: [Float]

    /// The window (`x`, `y`, `width` × `height` full-resolution pixels, inside the scan) at
    /// full resolution, as ``GreyImage/read(_:x:y:width:height:bufferWidth:bufferHeight:)``
    /// reads it (BT.601 luma, transparent pixels as white paper: ``Luma``), not rounded.
    static func read(_ reader: any ScanReader, x: Int, y: Int, width: Int, height: Int) throws -> RealGreyImage {
        let grey = try Luma.reals(reader, x: x, y: y, width: width, height: height)
        return RealGreyImage(width: width, height: height, pixels: grey)
    }

    /// This image rendered into a `width` × `height` picture through `h` (picture position →
    /// this image's position, GDAL's convention), blurred first by `blur` source pixels against
    /// aliasing where the warp reduces (cmatch_warp_real), in real levels.
    func warped(_ h: Homography, blur: Double, width: Int, height: Int) throws -> RealGreyImage {
        var out = [Float](repeating: 0, count: width * height)
        let cv = Homography.scaling(1, 1, moving: -0.5, -0.5).after(h).after(.scaling(1, 1, moving: 0.5, 0.5))
        let status = pixels.withUnsafeBufferPointer { ps in
            cmatch_warp_real(
                cmatch_real_image(pixels: ps.baseAddress, width: Int32(self.width), height: Int32(self.height), stride: Int32(self.width)),
                cv.m, blur, &out, Int32(width), Int32(height))
        }
        guard status == 0 else { throw MatchError(.engineFailed, "OpenCV failed to warp a template (cmatch_warp_real)") }
        return RealGreyImage(width: width, height: height, pixels: out)
    }

    /// Where `template` fits in this image: the best top-left offset (sub-pixel: a parabola
    /// through the peak on each axis) and the peak correlation; nil when the peak is on the
    /// search's border or the template is flat (cmatch_locate_real).
    func locate(_ template: RealGreyImage) throws -> (x: Double, y: Double, score: Double)? {
        var x = 0.0, y = 0.0, score = 0.0
        let status = pixels.withUnsafeBufferPointer { ps in
            template.pixels.withUnsafeBufferPointer { pt in
                cmatch_locate_real(
                    cmatch_real_image(pixels: ps.baseAddress, width: Int32(width), height: Int32(height), stride: Int32(width)),
                    cmatch_real_image(
                        pixels: pt.baseAddress, width: Int32(template.width), height: Int32(template.height), stride: Int32(template.width)),
                    &x, &y, &score)
            }
        }
        guard status >= 0 else { throw MatchError(.engineFailed, "OpenCV failed to correlate a template (cmatch_locate_real)") }
        return status == 0 ? (x, y, score) : nil
    }
}
