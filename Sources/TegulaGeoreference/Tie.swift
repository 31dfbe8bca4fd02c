import Foundation
import TegulaGeometry

/// A tie point: a pixel on one sheet and a pixel on another that show the same place, with no
/// ground coordinates (a shared neatline corner, a street crossing in the overlap), as Allmaps'
/// `@allmaps/attach` joins maps by "resource control points".
public struct Tie: Sendable, Hashable {
    /// The first sheet's index in the series.
    public var sheetA: Int
    /// The place on the first sheet's scan, pixels.
    public var pixelA: PixelPoint
    /// The second sheet's index.
    public var sheetB: Int
    /// The place on the second sheet's scan.
    public var pixelB: PixelPoint

    /// A tie from its parts.
    public init(sheetA: Int, pixelA: PixelPoint, sheetB: Int, pixelB: PixelPoint) {
        self.sheetA = sheetA
        self.pixelA = pixelA
        self.sheetB = sheetB
        self.pixelB = pixelB
    }
}

/// What the joint fit did to one tie: the seam error (the ground distance between where the two
/// sheets put the tie point) before (sheets fitted alone) and after, and after it each sheet's
/// distance to the joint ground point. Great-circle metres on the mean Earth sphere, as
/// ``GeoreferenceReport``'s residuals.
public struct TieFigures: Sendable, Codable, Equatable {
    /// The tie's index in the series' list.
    public var index: Int
    /// The joint ground point, `[lon, lat]` in degrees.
    public var ground: [Double]
    /// Seam error with each sheet fitted on its own GCPs.
    public var seamBeforeMetres: Double
    /// Seam error after the joint fit (the transforms the warp uses).
    public var seamAfterMetres: Double
    /// After the joint fit: the first sheet's position of the tie point to the joint ground point.
    public var residualAMetres: Double
    /// The same for the second sheet.
    public var residualBMetres: Double
}
