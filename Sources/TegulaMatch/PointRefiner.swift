import Foundation
import TegulaGeometry
import TegulaScan

/// Moves a proposed correspondence to where the two images agree at full resolution: a small
/// template of one image, warped by the match's homography into the other's pixels, located by
/// normalised cross-correlation with a sub-pixel peak. Works in the coarser image's pixels (the
/// sharper one is reduced into it), and reads only the two small windows it needs.
struct PointRefiner {
    let scan: any ScanReader
    let reference: any ScanReader
    /// Scan → reference, full resolution.
    let homography: Homography
    let inverse: Homography
    let settings: MatchSettings
    /// How far, in pixels of the coarser image, the true position may be from the homography's.
    let searchRadius: Int
    /// The template's half width and half height in pixels of the coarser image (2x + 1 by 2y + 1),
    /// along the scan's axes (``alongReference(at:)`` where the template is laid in the
    /// reference); nil for a square of the settings' half side. A long template along a narrow
    /// overlap holds more of a smooth picture than a square as wide as the overlap.
    var halfSize: (x: Int, y: Int)? = nil
    /// Whether a point found is found again with the template drawn back by the move's fraction
    /// of a pixel (``recentred(_:in:_:radius:)``): for a search near the truth already (a tie
    /// finder's last round), where the second peak is the first one seen again. On the 64-sheet
    /// bench series the found ties' mean distance from the truth went from 0.109 to 0.092 px and
    /// the true seams' worst from 0.85 to 0.61 px; in every search (the first round's 32 px too)
    /// the second peak wandered over flat overlaps and pairs stopped matching.
    var recentres = false
    /// The Gaussian σ, in pixels of the coarser image, by which both pictures are smoothed before
    /// they are correlated (0: not at all): the search window as read, the template with its
    /// warp's blur (``TemplateWarp``). A tie finder's last rounds smooth
    /// (``OverlapTieFinder/smoothedRounds``): rounding to whole levels cuts a smooth picture into
    /// steps that fall differently on two scans of it.
    var smoothing = 0.0

    /// A refined pair (scan, reference) and its correlation; nil when a window leaves an image,
    /// the template is flat, the peak is on the search's border or below the correlation asked.
    func refine(scanPoint p: PixelPoint) throws -> (scan: PixelPoint, reference: PixelPoint, score: Double)? {
        let q = homography.apply(p)
        guard q.x.isFinite, q.y.isFinite else { return nil }
        if homography.localScale(at: p) <= 1 {
            // The reference is the coarser: search it for the scan's template.
            guard let (found, score) = try locate(around: q, in: reference, template: scan, mapping: inverse, halfSize: alongReference(at: p))
            else { return nil }
            return (p, found, score)
        }
        guard let (found, score) = try locate(around: p, in: scan, template: reference, mapping: homography, halfSize: halfSize) else { return nil }
        return (found, q, score)
    }

    /// ``halfSize``, given along the scan's axes, along the reference's: swapped where the
    /// homography turns the scan's x axis nearer to the reference's y axis (a sheet scanned a
    /// quarter turn round), so a template long along an overlap stays along it in the reference.
    func alongReference(at p: PixelPoint) -> (x: Int, y: Int)? {
        guard let size = halfSize else { return nil }
        let l = homography.apply(PixelPoint(x: p.x - 0.5, y: p.y)), r = homography.apply(PixelPoint(x: p.x + 0.5, y: p.y))
        return abs(r.y - l.y) > abs(r.x - l.x) ? (size.y, size.x) : size
    }

    /// Where the content of `template` image at `mapping(c)` lies in `image`, near `c`.
    private func locate(
        around c: PixelPoint, in image: any ScanReader, template other: any ScanReader,
        mapping g: Homography, halfSize: (x: Int, y: Int)?
    ) throws -> (PixelPoint, Double)? {
        let (tx, ty) = halfSize ?? (settings.templateHalfSide, settings.templateHalfSide), r = searchRadius
        let cx = Int(floor(c.x)), cy = Int(floor(c.y))
        let sx = cx - tx - r, sy = cy - ty - r, sw = 2 * (tx + r) + 1, sh = 2 * (ty + r) + 1
        guard sx >= 0, sy >= 0, sx + sw <= image.width, sy + sh <= image.height else { return nil }
        guard let search = try window(image, x: sx, y: sy, width: sw, height: sh) else { return nil }
        let corner = (x: Double(cx - tx), y: Double(cy - ty)), size = (width: 2 * tx + 1, height: 2 * ty + 1)
        guard let warp = try TemplateWarp(other, mapping: g, corner: corner, size: size, scale: g.localScale(at: c), smoothing: smoothing)
        else { return nil }
        guard let first = try search.locate(warp.template(0, 0)), first.score >= settings.verdict.minimumCorrelation else { return nil }
        // Unmoved, the template's corner sits at (r, r) of the search: the content moves by d.
        let d = (x: first.x - Double(r), y: first.y - Double(r))
        let unmoved = (x: d.x, y: d.y, score: first.score)
        let moved = recentres ? try recentred(d, in: search, warp.template, radius: r) ?? unmoved : unmoved
        return (PixelPoint(x: c.x + moved.x, y: c.y + moved.y), moved.score)
    }

    /// The search window (`x`, `y`, `width` × `height` pixels of `image`), smoothed by
    /// ``smoothing`` from a window wider by three σ each way (so its edges are blurred from the
    /// picture, not from a mirror of it); nil when that wider window leaves the image.
    private func window(_ image: any ScanReader, x: Int, y: Int, width: Int, height: Int) throws -> RealGreyImage? {
        guard smoothing > 0 else { return try RealGreyImage.read(image, x: x, y: y, width: width, height: height) }
        let m = Int(ceil(3 * smoothing))
        guard x >= m, y >= m, x + width + m <= image.width, y + height + m <= image.height else { return nil }
        let wide = try RealGreyImage.read(image, x: x - m, y: y - m, width: width + 2 * m, height: height + 2 * m)
        return try wide.warped(.scaling(1, 1, moving: Double(m), Double(m)), blur: smoothing, width: width, height: height)
    }

    /// The move `d` found again with the template drawn `d`'s fraction of a pixel back, so the
    /// peak falls near a whole pixel, where the parabola through it and its neighbours is least
    /// drawn towards the whole pixel; nil when the second peak lies over half a pixel from the
    /// first (a flat peak that moves as the template does: the first stands) or is not found.
    private func recentred(
        _ d: (x: Double, y: Double), in search: RealGreyImage, _ template: (Double, Double) throws -> RealGreyImage, radius r: Int
    ) throws -> (x: Double, y: Double, score: Double)? {
        let fx = d.x - d.x.rounded(), fy = d.y - d.y.rounded()
        guard let again = try search.locate(template(-fx, -fy)), again.score >= settings.verdict.minimumCorrelation else { return nil }
        let x = again.x - Double(r) + fx, y = again.y - Double(r) + fy
        guard abs(x - d.x) <= 0.5, abs(y - d.y) <= 0.5 else { return nil }
        return (x, y, again.score)
    }
}
