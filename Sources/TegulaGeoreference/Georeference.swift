import Foundation
import TegulaGDAL

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
    private let analysis: LazyReport

    /// Residuals, leave-one-out errors, distortion, round trip and footprint: computed the first
    /// time it is asked for (a plan that needs only the transform never pays for it) and kept.
    public var report: GeoreferenceReport { analysis.value }

    /// A georeference from its parts (the report is normally computed by ``Georeferencer``).
    public init(gcps: GCPSet, kind: TransformKind, fitCRS: CRS, transform: any PixelTransform,
                report: GeoreferenceReport) {
        self.init(gcps: gcps, kind: kind, fitCRS: fitCRS, transform: transform, analysis: LazyReport { report })
    }

    init(gcps: GCPSet, kind: TransformKind, fitCRS: CRS, transform: any PixelTransform, analysis: LazyReport) {
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
        var xs = grounds.map(\.x), ys = grounds.map(\.y)
        try CRSConversion(from: crs ?? gcps.crs, to: fitCRS).apply(x: &xs, y: &ys)
        return zip(xs, ys).map { x, y in
            guard x.isFinite, y.isFinite else { return nil }
            return transform.inverse(GroundPoint(x: x, y: y))
        }
    }

    /// What a georeferenced output stores beside its GCPs so that Tegula reproduces this fit.
    public var stored: StoredFit {
        StoredFit(transform: kind, fitCRS: .crs(fitCRS), mask: gcps.mask.flatMap { $0.count >= 3 ? $0 : nil })
    }
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
