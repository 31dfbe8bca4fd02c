import TegulaGeometry

/// The last round's templates, long along the overlap: a strip between two sheets is as wide as a
/// small template, and where the picture is smooth (Blue Marble at zoom 6 shows a source pixel
/// every 6–8 scan pixels) a square that wide holds a few grey levels, rounded differently on
/// each sheet, which move its peak by up to a pixel. A longer template holds more of the picture.
extension OverlapTieFinder {
    /// How many times its half width a template of the last round runs along the overlap, at most
    /// (and at most twice the matching's half side: a wide overlap's square holds enough).
    /// On a made 4 × 4 series at zoom 6 with 24-px overlaps, the found ties' farthest from the
    /// truth went from 1.11 px (squares) to 0.74 px, the median from 0.22 to 0.13 px.
    static let lengthening = 4

    /// The longest half length, from `across` up to `most`, of a template of half width `across`
    /// centred on `p` and lying along x (`horizontal`) or y that stays `gap` pixels inside both
    /// `rings` (``Overlap/holdsBox(around:ex:ey:in:)``).
    static func longest(_ p: PixelPoint, across: Int, most: Int, horizontal: Bool, rings: [[PixelPoint]], gap: Int) -> Int {
        var along = most
        while along > across {
            let (hx, hy) = horizontal ? (along, across) : (across, along)
            if Overlap.holdsBox(around: p, ex: Double(hx + gap) - 0.01, ey: Double(hy + gap) - 0.01, in: rings) { break }
            along -= 1
        }
        return along
    }

    /// Whether the points spread more along x than along y: the way a strip of overlap runs.
    static func alongX(_ points: [PixelPoint]) -> Bool {
        let xs = points.map(\.x), ys = points.map(\.y)
        return (xs.max()! - xs.min()!) >= (ys.max()! - ys.min()!)
    }
}
