import Foundation
import TegulaGDAL
import TegulaGeometry

/// A fitted georeference: the GCPs, the transform (pixel → fit CRS, with its exact inverse), and
/// the quality report. Made by ``Georeferencer/fit(_:imageWidth:imageHeight:options:)``.
public struct Georeference: Sendable {
    /// The GCPs it was fitted from (disabled ones included, as checks).
    public let gcps: GCPSet
    /// The transform that was fitted.
    public let kind: TransformKind
    /// The CRS the transform maps into.
    public let fitCRS: CRS
    /// Pixel → fit CRS, with its exact inverse.
    public let transform: any PixelTransform
    /// The image the GCPs belong to, in pixels (the fit's domain).
    public let imageWidth: Int
    public let imageHeight: Int
    private let analysis: LazyReport

    /// Residuals, leave-one-out errors, distortion, round trip and footprint: computed the first
    /// time it is asked for (a plan that needs only the transform never pays for it) and kept.
    public var report: GeoreferenceReport { analysis.value }

    /// A georeference from its parts (the report is normally computed by ``Georeferencer``).
    public init(
        gcps: GCPSet, kind: TransformKind, fitCRS: CRS, transform: any PixelTransform,
        report: GeoreferenceReport
    ) {
        self.init(
            gcps: gcps, kind: kind, fitCRS: fitCRS, transform: transform,
            imageWidth: report.imageWidth, imageHeight: report.imageHeight, analysis: LazyReport { report })
    }

    init(
        gcps: GCPSet, kind: TransformKind, fitCRS: CRS, transform: any PixelTransform,
        imageWidth: Int, imageHeight: Int, analysis: LazyReport
    ) {
        self.imageWidth = imageWidth
        self.imageHeight = imageHeight
        self.gcps = gcps
        self.kind = kind
        self.fitCRS = fitCRS
        self.transform = transform
        self.analysis = analysis
    }

    /// Pixels → ground coordinates in `srs` (default: the GCPs' CRS), through the fit CRS.
    /// Points PROJ cannot transform come back as NaN.
    public func pixelsToGround(_ pixels: [PixelPoint], crs: CRS? = nil) throws -> [GroundPoint] {
        var xs: [Double] = [], ys: [Double] = []
        for p in pixels {
            let g = transform.forward(p)
            xs.append(g.x)
            ys.append(g.y)
        }
        try CRSConversion(from: fitCRS, to: crs ?? gcps.crs).apply(x: &xs, y: &ys)
        return zip(xs, ys).map { GroundPoint(x: $0, y: $1) }
    }

    /// Ground coordinates in `srs` (default: the GCPs' CRS) → pixels by the exact inverse; nil
    /// where PROJ or the inverse fails.
    public func groundToPixels(_ grounds: [GroundPoint], crs: CRS? = nil) throws -> [PixelPoint?] {
        try groundToPixels(grounds, crs: crs, folds: nil).map { if case .pixel(let p) = $0 { p } else { nil } }
    }

    /// Ground coordinates in `srs` (default: the GCPs' CRS) → pixels by the exact inverse; where
    /// the fit folds (`folds`, ``foldOver(_:)``), the preimage on the GCPs' sheet, or `.folded`
    /// when none on it is reached.
    public func groundToPixels(_ grounds: [GroundPoint], crs: CRS? = nil, folds: FoldOver?) throws -> [InverseAnswer] {
        var xs = grounds.map(\.x), ys = grounds.map(\.y)
        try CRSConversion(from: crs ?? gcps.crs, to: fitCRS).apply(x: &xs, y: &ys)
        return zip(xs, ys).map { x, y in
            let g = GroundPoint(x: x, y: y)
            guard x.isFinite, y.isFinite else { return .none }
            let found = transform.inverse(g)
            guard let folds else { return found.map { .pixel($0) } ?? .none }
            return folds.answer(found, for: g).map { .pixel($0) } ?? .folded
        }
    }

    /// Where this fit folds over within `scope` of its image, nil when it folds nowhere there
    /// (helmert and polynomial1 never do).
    public func foldOver(_ scope: FoldOver.Scope) -> FoldOver? {
        FoldOver(
            transform: transform, gcpPixels: gcps.gcps.filter(\.enabled).map(\.pixel),
            width: Double(imageWidth), height: Double(imageHeight), scope: scope)
    }

    /// The mask (else the scan's border) through the fit, `[lon, lat]`, closed, its edges refined
    /// by `refinement` where the fit bends them (``FitFootprint``); the report holds it refined
    /// by Allmaps' settings unless ``refiningFootprint(_:)`` said otherwise.
    public func footprint(_ refinement: EdgeRefinement = .allmaps) throws -> [[Double]] {
        try FitFootprint.ring(
            mask: gcps.mask, width: imageWidth, height: imageHeight, transform: transform,
            fitCRS: fitCRS, refinement: refinement)
    }

    /// This fit with its report's footprint refined by `refinement`, so the report, the sheet
    /// index and `--footprint` hold one polygon.
    public func refiningFootprint(_ refinement: EdgeRefinement) -> Georeference {
        guard refinement != .allmaps else { return self }
        let base = self
        return Georeference(
            gcps: gcps, kind: kind, fitCRS: fitCRS, transform: transform, imageWidth: imageWidth,
            imageHeight: imageHeight,
            analysis: LazyReport {
                var r = base.report
                if let ring = try? base.footprint(refinement) { r.footprint = ring }
                return r
            })
    }

    /// What a georeferenced output stores beside its GCPs so that Tegula reproduces this fit.
    public var stored: StoredFit {
        StoredFit(transform: kind, fitCRS: .crs(fitCRS), mask: gcps.mask.flatMap { $0.count >= 3 ? $0 : nil })
    }
}

/// What the exact inverse answers for one ground point.
public enum InverseAnswer: Sendable, Equatable {
    /// The pixel.
    case pixel(PixelPoint)
    /// The fit folds over (``FoldOver``) and no preimage on the GCPs' sheet was reached (any
    /// found lies past the fold): no honest answer.
    case folded
    /// No pixel: PROJ or the inverse failed.
    case none
}

/// A report made on first use, once, whichever thread asks first.
final class LazyReport: @unchecked Sendable {
    private let lock = NSLock()
    private var made: GeoreferenceReport?
    private var make: (() -> GeoreferenceReport)?

    init(_ make: @escaping () -> GeoreferenceReport) { self.make = make }

    var value: GeoreferenceReport {
        lock.lock()
        defer { lock.unlock() }
        if let made { return made }
        let r = make!()
        made = r
        make = nil
        return r
    }
}

/// A PROJ conversion between two CRSs, or nothing when they are the same CRS.
/// Made per use: PROJ handles are not shared between threads.
struct CRSConversion {
    let operation: CoordinateTransformation?

    init(from: CRS, to: CRS) throws {
        if from.isSame(as: to) {
            operation = nil
        } else {
            do { operation = try CoordinateTransformation(from: from.makeReference(), to: to.makeReference()) } catch {
                throw GeoreferenceError(.unknownCRS, "no coordinate operation from \(from.label) to \(to.label): \(error)")
            }
        }
    }

    /// Transform in place; failures become NaN.
    func apply(x: inout [Double], y: inout [Double]) {
        guard let operation else { return }
        let ok = operation.transform(x: &x, y: &y)
        for i in ok.indices where !ok[i] { x[i] = .nan; y[i] = .nan }
    }
}
