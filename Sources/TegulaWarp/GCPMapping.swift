import TegulaGDAL
import TegulaGeometry
import TegulaGeoreference

/// The mapping of a scan georeferenced by GCPs: EPSG:3857 metres → fit CRS through PROJ → source
/// pixel by the fitted transform's exact inverse, and the reverse through its forward.
public struct GCPMapping: SourceMapping {
    /// Scan width in pixels.
    public let sourceWidth: Int
    /// Scan height in pixels.
    public let sourceHeight: Int
    /// The fitted georeference (transform in its fit CRS, GCPs, report).
    public let georeference: Georeference
    /// The neatline polygon in scan pixels, if any.
    public let mask: [(x: Double, y: Double)]?
    /// Where the fit folds over inside the scan (nil almost always): each pixel shows the
    /// preimage on the GCPs' sheet; the part of the scan past the fold is shown nowhere.
    public let folds: FoldOver?

    /// A mapping for a `width` × `height` scan; `mask` in source pixels.
    public init(width: Int, height: Int, georeference: Georeference, mask: [(x: Double, y: Double)]? = nil) throws {
        sourceWidth = width
        sourceHeight = height
        self.georeference = georeference
        self.mask = mask
        folds = georeference.foldOver(.image)
        _ = try Evaluator(mapping: self)
    }

    /// A PROJ-backed evaluator for one thread.
    public func makeEvaluator() throws -> MappingEvaluator {
        try Evaluator(mapping: self)
    }

    /// An evaluator whose output positions are in `output` instead of EPSG:3857: one PROJ
    /// transformation between it and the fit CRS, none when they are the same (``ReprojectedMapping``).
    func makeEvaluator(output: CRS) throws -> MappingEvaluator {
        try Evaluator(mapping: self, output: output)
    }

    final class Evaluator: MappingEvaluator {
        let transform: any PixelTransform
        let folds: FoldOver?
        let toFit: CoordinateTransformation?
        let toMercator: CoordinateTransformation?

        /// `output`: the CRS of the positions it takes and gives (EPSG:3857 for the tile grid).
        init(mapping m: GCPMapping, output: CRS = .webMercator) throws {
            transform = m.georeference.transform
            folds = m.folds
            let fit = m.georeference.fitCRS
            if fit.isSame(as: output) {
                toFit = nil
                toMercator = nil
            } else {
                toFit = try CoordinateTransformation(from: output, to: fit)
                toMercator = try CoordinateTransformation(from: fit, to: output)
            }
        }

        func sourcePixels(x: inout [Double], y: inout [Double]) {
            if let toFit { toFit.transform(x: &x, y: &y) }
            // Points arrive in rows: each answer's Newton iteration continues from the last one's
            // (its value and Jacobian reused, see NewtonStart).
            var last: NewtonStart?
            for i in x.indices {
                let g = GroundPoint(x: x[i], y: y[i])
                guard x[i].isFinite, y[i].isFinite else { x[i] = .nan; y[i] = .nan; last = nil; continue }
                let found = transform.inverse(g, continuing: &last)
                guard let p = folds.map({ $0.answer(found, for: g) }) ?? found else {
                    x[i] = .nan; y[i] = .nan; last = nil; continue
                }
                x[i] = p.x
                y[i] = p.y
                // Past a fold the answer is another preimage than the one found: the next point
                // starts from it, as from any answer.
                if p != found {
                    last = NewtonStart(pixel: p, ground: transform.forward(p), jacobian: transform.jacobian(at: p))
                }
            }
        }

        func projected(x: inout [Double], y: inout [Double]) {
            for i in x.indices {
                let g = transform.forward(PixelPoint(x: x[i], y: y[i]))
                x[i] = g.x
                y[i] = g.y
            }
            if let toMercator { toMercator.transform(x: &x, y: &y) }
            for i in x.indices where !x[i].isFinite || !y[i].isFinite { x[i] = .nan; y[i] = .nan }
        }
    }
}

extension WarpSource {
    /// The fitted georeference when the source is GCP-based, else nil.
    public var georeference: Georeference? { (mapping as? GCPMapping)?.georeference }

    /// One line on where the fit folds over inside the scan and what the warp does there; nil
    /// when it does not fold (printed once as a warning by the commands that warp).
    public var foldWarning: String? {
        (mapping as? GCPMapping)?.folds.map {
            "\($0.description): the warp shows the scan on the GCPs' side of the fold and leaves the part past it out"
        }
    }

    /// The GCPs as viewer pins (name, lon, lat, honest error in metres), from the fit or stored
    /// in a warped raster; empty when there are none.
    public var gcpPins: [GCPPin] { summary?.pins ?? [] }
}
