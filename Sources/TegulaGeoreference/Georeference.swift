import Foundation
import TegulaGDAL

/// A fitted georeference: the GCPs, the transform (pixel → fit CRS, with its exact inverse), and
/// the quality report. Made by ``Georeferencer/fit(_:imageWidth:imageHeight:options:)``.
public struct Georeference: Sendable {
    /// The GCPs it was fitted from (disabled ones included, as checks).
    public let gcps: GCPSet
    /// The transform that was fitted.
    public let kind: TransformKind
    /// The CRS the transform maps into (a definition PROJ reads).
    public let fitSRS: String
    /// Pixel → fit CRS, with its exact inverse.
    public let transform: any PixelTransform
    /// Residuals, leave-one-out errors, distortion, round trip and footprint.
    public let report: GeoreferenceReport

    /// A georeference from its parts (the report is normally computed by ``Georeferencer``).
    public init(gcps: GCPSet, kind: TransformKind, fitSRS: String, transform: any PixelTransform,
                report: GeoreferenceReport) {
        self.gcps = gcps
        self.kind = kind
        self.fitSRS = fitSRS
        self.transform = transform
        self.report = report
    }

    /// Pixels → ground coordinates in `srs` (default: the GCPs' CRS), through the fit CRS.
    /// Points PROJ cannot transform come back as NaN.
    public func pixelsToGround(_ pixels: [PixelPoint], srs: String? = nil) throws -> [GroundPoint] {
        var xs: [Double] = [], ys: [Double] = []
        for p in pixels {
            let g = transform.forward(p)
            xs.append(g.x)
            ys.append(g.y)
        }
        try CRSConversion(from: fitSRS, to: srs ?? gcps.srs).apply(x: &xs, y: &ys)
        return zip(xs, ys).map { GroundPoint(x: $0, y: $1) }
    }

    /// Ground coordinates in `srs` (default: the GCPs' CRS) → pixels by the exact inverse; nil
    /// where PROJ or the inverse fails.
    public func groundToPixels(_ grounds: [GroundPoint], srs: String? = nil) throws -> [PixelPoint?] {
        var xs = grounds.map(\.x), ys = grounds.map(\.y)
        try CRSConversion(from: srs ?? gcps.srs, to: fitSRS).apply(x: &xs, y: &ys)
        return zip(xs, ys).map { x, y in
            guard x.isFinite, y.isFinite else { return nil }
            return transform.inverse(GroundPoint(x: x, y: y))
        }
    }

    /// The metadata items a georeferenced output carries so Tegula reproduces this fit.
    public var metadataItems: [String: String] {
        var m = ["TEGULA_TRANSFORM": kind.rawValue, "TEGULA_FIT_SRS": fitSRS]
        if let mask = gcps.mask, mask.count >= 3 { m["TEGULA_MASK"] = MaskReader.wkt(mask) }
        return m
    }
}

/// A PROJ conversion between two CRS definitions, or nothing when they are the same CRS.
/// Made per use: PROJ handles are not shared between threads.
struct CRSConversion {
    let operation: CoordinateTransformation?

    init(from: String, to: String) throws {
        let a = try CRSConversion.reference(from), b = try CRSConversion.reference(to)
        if from == to || a.isSame(as: b) {
            operation = nil
        } else {
            do { operation = try CoordinateTransformation(from: a, to: b) } catch {
                throw GeoreferenceError(.unknownCRS, "no coordinate operation from \(a.label) to \(b.label): \(error)")
            }
        }
    }

    /// Parse a CRS definition, as a georeference error naming it when PROJ does not know it.
    static func reference(_ definition: String) throws -> SpatialReference {
        do { return try SpatialReference(definition) } catch {
            throw GeoreferenceError(.unknownCRS, "unknown CRS '\(definition.prefix(80))': expected e.g. EPSG:4326, EPSG:3857, `gcp`, a WKT or a PROJ string")
        }
    }

    /// Transform in place; failures become NaN.
    func apply(x: inout [Double], y: inout [Double]) {
        guard let operation else { return }
        let ok = operation.transform(x: &x, y: &y)
        for i in ok.indices where !ok[i] { x[i] = .nan; y[i] = .nan }
    }
}
