import Foundation
import TegulaGDAL
import TegulaGeometry

/// The georeference stage's entry point: validate GCPs, bring them into the fitting CRS, fit a
/// transform (given, hinted by the file, or chosen by ``choiceRule``) and compute its report.
public enum Georeferencer {
    /// The rule used when no transform is given and the file has no hint.
    public static let choiceRule =
        "lowest leave-one-out RMSE (metres) among the transforms the enabled GCPs allow with one to spare; figures within 0.1% + 1 mm of each other tie and go to the simpler transform"

    /// Fit (choosing the transform when `options.transform` is nil, by ``choiceRule``); the full
    /// report is computed when first read (``Georeference/report``). Throws a ``GeoreferenceError`` for bad GCPs, an unknown CRS, or a fit
    /// that the points do not determine.
    public static func fit(
        _ gcps: GCPSet, imageWidth: Int, imageHeight: Int,
        options: FitOptions
    ) throws -> Georeference {
        try gcps.validate(imageWidth: imageWidth, imageHeight: imageHeight, geographic: gcps.crs.isGeographic)
        let (fitCRS, fitCRSReason) = gcps.fitCRSChoice(given: options.fitCRS)
        let context = try FitContext(gcps: gcps, fitCRS: fitCRS, width: imageWidth, height: imageHeight)
        let n = context.pixels.count
        let kind: TransformKind
        let chosenBy: String
        if let given = options.transform {
            kind = given
            chosenBy = "given"
        } else if let hint = gcps.transformHint {
            kind = hint
            chosenBy = "the GCP file's transformation (\(hint.rawValue))"
        } else {
            (kind, chosenBy) = try choose(context)
        }
        guard n >= kind.minimumGCPs else {
            throw GeoreferenceError(
                .tooFewGCPs, at: gcps.source,
                "\(kind.rawValue) needs at least \(kind.minimumGCPs) enabled GCPs, got \(n)\(n >= 2 ? "; with \(n) use \(allowed(n).map(\.rawValue).joined(separator: ", "))" : "")"
            )
        }
        guard kind != .tps || n <= ThinPlateSplineTransform.maximumGCPs else {
            throw GeoreferenceError(
                .tooManyGCPs, at: gcps.source,
                "tps solves a dense (n + 3)² system, O(n³): \(n) enabled GCPs is past the \(ThinPlateSplineTransform.maximumGCPs) it takes; thin them out, or use polynomial2 or polynomial3"
            )
        }
        guard
            let transform = fitTransform(
                kind, pixels: context.pixels, grounds: context.fitGrounds,
                domain: context.domain)
        else {
            throw GeoreferenceError(
                .degenerateGCPs, at: gcps.source,
                "the \(n) enabled GCPs do not determine a \(kind.rawValue) transform: they are (nearly) collinear or coincide; spread them over the scan"
            )
        }
        // The report is made on first use; the CRS conversions it needs are checked now, so a
        // fit that cannot be reported on fails here as before.
        let analysis = QualityAnalysis(context: context, kind: kind, transform: transform, fitCRSReason: fitCRSReason)
        try analysis.checkConversions()
        return Georeference(
            gcps: gcps, kind: kind, fitCRS: fitCRS, transform: transform,
            imageWidth: imageWidth, imageHeight: imageHeight, analysis: LazyReport { analysis.reportOrNote(chosenBy: chosenBy) })
    }

    /// The leave-one-out RMSE in metres of each transform ``choiceRule`` chooses among
    /// (``TransformKind/chosenAmong``) on the enabled GCPs, in
    /// ``choiceRule``'s order (simplest first); nil where the GCPs leave none to spare or the
    /// refits fail. The one-line comparison the editor shows beside every fit.
    public static func compare(
        _ gcps: GCPSet, imageWidth: Int, imageHeight: Int,
        fitCRS: FitCRS? = nil
    ) throws -> [(kind: TransformKind, looMetres: Double?)] {
        let context = try FitContext(gcps: gcps, fitCRS: gcps.fitCRS(given: fitCRS), width: imageWidth, height: imageHeight)
        let n = context.pixels.count
        return TransformKind.chosenAmong.map { kind in
            (kind, n > kind.minimumGCPs ? QualityAnalysis.leaveOneOutRMSE(context, kind: kind) : nil)
        }
    }

    /// Transforms `n` GCPs determine, simplest first.
    static func allowed(_ n: Int) -> [TransformKind] {
        TransformKind.chosenAmong
            .filter { n >= $0.minimumGCPs && ($0 != .tps || n <= ThinPlateSplineTransform.maximumGCPs) }
    }

    /// Pick by ``choiceRule``; with too few GCPs for any leave-one-out, the most general allowed.
    static func choose(_ context: FitContext) throws -> (TransformKind, String) {
        let n = context.pixels.count
        let candidates = allowed(n)
        guard !candidates.isEmpty else {
            throw GeoreferenceError(
                .tooFewGCPs, at: context.gcps.source,
                "at least 2 enabled GCPs are needed (helmert), got \(n)")
        }
        var best: (TransformKind, Double)?
        var tried: [String] = []
        for kind in candidates where n > kind.minimumGCPs {
            guard let loo = QualityAnalysis.leaveOneOutRMSE(context, kind: kind) else { continue }
            tried.append(String(format: "%@ %.4g m", kind.rawValue, loo))
            if best == nil || loo < best!.1 * (1 - 1e-3) - 1e-3 { best = (kind, loo) }
        }
        if let best {
            return (best.0, "\(choiceRule): \(tried.joined(separator: ", "))")
        }
        let fallback = candidates.first { $0 == .polynomial1 } ?? candidates[0]
        return (
            fallback,
            "too few GCPs (\(n)) for any leave-one-out check: \(fallback.rawValue), the most general transform \(n) GCPs determine without tps"
        )
    }

    /// Fit one transform; nil when the points do not determine it.
    static func fitTransform(
        _ kind: TransformKind, pixels: [PixelPoint], grounds: [GroundPoint],
        domain: (Double, Double, Double, Double)
    ) -> (any PixelTransform)? {
        guard pixels.count >= kind.minimumGCPs, kind != .tps || pixels.count <= ThinPlateSplineTransform.maximumGCPs else { return nil }
        switch kind {
        case .helmert: return HelmertTransform(pixels: pixels, grounds: grounds)
        case .straight: return StraightTransform(pixels: pixels, grounds: grounds)
        case .polynomial1: return PolynomialTransform(order: 1, pixels: pixels, grounds: grounds, domain: domain)
        case .polynomial2: return PolynomialTransform(order: 2, pixels: pixels, grounds: grounds, domain: domain)
        case .polynomial3: return PolynomialTransform(order: 3, pixels: pixels, grounds: grounds, domain: domain)
        case .projective: return ProjectiveTransform(pixels: pixels, grounds: grounds)
        case .tps: return ThinPlateSplineTransform(pixels: pixels, grounds: grounds, domain: domain)
        }
    }
}

/// The enabled GCPs of a set, in pixels and in the fitting CRS, plus their longitude/latitude
/// for distances on the ground.
struct FitContext {
    let gcps: GCPSet
    let fitCRS: CRS
    let width: Int
    let height: Int
    /// Enabled GCPs only, in file order.
    let enabled: [GCP]
    let pixels: [PixelPoint]
    let fitGrounds: [GroundPoint]

    var domain: (Double, Double, Double, Double) { (0, 0, Double(width), Double(height)) }

    var fitIsGeographic: Bool { fitCRS.isGeographic }

    init(gcps: GCPSet, fitCRS: CRS, width: Int, height: Int) throws {
        self.gcps = gcps
        self.fitCRS = fitCRS
        self.width = width
        self.height = height
        enabled = gcps.enabled
        pixels = enabled.map(\.pixel)
        var xs = enabled.map(\.ground.x), ys = enabled.map(\.ground.y)
        try CRSConversion(from: gcps.crs, to: fitCRS).apply(x: &xs, y: &ys)
        for (i, g) in enabled.enumerated() where !xs[i].isFinite || !ys[i].isFinite {
            throw GeoreferenceError(
                .invalidCoordinate, at: "\(gcps.source): GCP \(g.id)",
                "ground \(g.ground) in \(gcps.crs) cannot be projected to the fitting CRS \(fitCRS) (beyond its area, e.g. a pole in EPSG:3857); choose another --fit-srs or fix the point"
            )
        }
        fitGrounds = zip(xs, ys).map { GroundPoint(x: $0, y: $1) }
    }
}
