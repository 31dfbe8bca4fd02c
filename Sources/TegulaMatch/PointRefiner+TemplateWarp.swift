import Foundation
import TegulaGeometry
import TegulaScan

extension PointRefiner {
    /// A template of one image laid in the other's pixels: pixel (i, j) shows what the image has
    /// at `mapping(corner + (i, j))`, read from the one window of it the template needs, and
    /// blurred first where the mapping reduces (against aliasing).
    struct TemplateWarp {
        let window: RealGreyImage
        /// The template's pixels → the window's.
        let toWindow: Homography
        let corner: (x: Double, y: Double)
        let size: (width: Int, height: Int)
        let blur: Double

        /// Nil when the mapping sends a corner of the template to infinity or its window leaves
        /// the image. `smoothing`: a Gaussian σ in the template's pixels the picture is smoothed
        /// by as well (``PointRefiner/smoothing``).
        init?(
            _ image: any ScanReader, mapping g: Homography, corner: (x: Double, y: Double), size: (width: Int, height: Int), scale: Double,
            smoothing: Double = 0
        ) throws {
            let (bx, by, tw, th) = (corner.x, corner.y, Double(size.width), Double(size.height))
            let corners = [
                PixelPoint(x: bx, y: by), PixelPoint(x: bx + tw, y: by), PixelPoint(x: bx, y: by + th), PixelPoint(x: bx + tw, y: by + th),
            ].map(g.apply)
            guard corners.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return nil }
            let antiAliasing = scale > 1 ? (scale * scale - 1).squareRoot() / 2 : 0
            blur = hypot(antiAliasing, smoothing * scale)
            let margin = 3 + Int(ceil(2 * scale)) + Int(ceil(3 * smoothing * scale))
            let ox = Int(floor(corners.map(\.x).min()!)) - margin, oy = Int(floor(corners.map(\.y).min()!)) - margin
            let ex = Int(ceil(corners.map(\.x).max()!)) + margin, ey = Int(ceil(corners.map(\.y).max()!)) + margin
            guard ox >= 0, oy >= 0, ex <= image.width, ey <= image.height else { return nil }
            window = try RealGreyImage.read(image, x: ox, y: oy, width: ex - ox, height: ey - oy)
            toWindow = Homography.scaling(1, 1, moving: -Double(ox), -Double(oy)).after(g)
            (self.corner, self.size) = (corner, size)
        }

        /// The template moved by (fx, fy) of its own pixels: what the image has at
        /// `mapping(corner + (i + fx, j + fy))`.
        func template(_ fx: Double, _ fy: Double) throws -> RealGreyImage {
            try window.warped(
                toWindow.after(.scaling(1, 1, moving: corner.x + fx, corner.y + fy)), blur: blur, width: size.width, height: size.height)
        }
    }
}
