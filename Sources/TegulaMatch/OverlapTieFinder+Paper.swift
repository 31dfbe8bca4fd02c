import TegulaGeometry

/// The last round's check that a tie's template, where it was found, is clear of both sheets'
/// paper. Its templates are placed ``edgeGap`` pixels inside the overlap where the corrected
/// prediction puts it; where that is still a few pixels off across a narrow strip, the true place
/// lies where a template meets a sheet's paper, the correlation falls off sharply there, and the
/// sub-pixel parabola through that fall makes a peak a pixel or two short of it (on smooth land
/// the correlation across is otherwise nearly flat). On the 1,024-sheet bench series r4c21–r5c21's
/// six ties lay 1.9–2.5 px off across so, all agreeing.
extension OverlapTieFinder {
    /// Pixels a template kept in the last round must keep inside both sheets' neatlines, where it
    /// was found: one for the parabola's neighbour, one of play.
    static let paperClearance = 2

    /// Whether the template of half size `half` (along the first sheet's axes) lies
    /// ``paperClearance`` pixels inside both sheets: centred on the tie's point `a` inside the
    /// first sheet's `mask`, and on its twin carried into the first sheet's pixels (`b`) inside the
    /// second sheet's `ring` there.
    static func clearOfPaper(a: PixelPoint, b: PixelPoint, half: (x: Int, y: Int), mask: [PixelPoint], ring: [PixelPoint]) -> Bool {
        inside(a, half, mask) && inside(b, half, ring)
    }

    /// Whether the four corners of the template centred on `p`, grown by ``paperClearance``, lie in `ring`.
    static func inside(_ p: PixelPoint, _ half: (x: Int, y: Int), _ ring: [PixelPoint]) -> Bool {
        let ex = Double(half.x + paperClearance) + 0.5, ey = Double(half.y + paperClearance) + 0.5
        return Overlap.holdsBox(around: p, ex: ex, ey: ey, in: [ring])
    }
}
