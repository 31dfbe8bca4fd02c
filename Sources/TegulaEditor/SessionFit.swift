import Foundation
import TegulaGeometry
import TegulaGeoreference

/// A session fitted to its scan: the ``Georeference`` (for saving, the overlay and predictions)
/// and the ``FitResult`` the API answers. The one place the editor fits.
public struct SessionFit: Sendable {
    /// The checked session.
    public let check: SessionCheck
    /// The fit, mask included.
    public let georeference: Georeference
    /// What the API answers.
    public let result: FitResult

    /// Fit `session` for a `width` × `height` scan at `scanPath`; a ``EditorError`` when the
    /// session is invalid or the points do not determine the transform.
    public init(_ session: EditorSession, scanPath: String, width: Int, height: Int) throws {
        let check = try SessionCheck(session, width: width, height: height)
        let fitted: Georeference
        do {
            fitted = try Georeferencer.fit(check.set, imageWidth: width, imageHeight: height, options: FitOptions(transform: check.transform))
        } catch let e as GeoreferenceError {
            switch e.reason {
            case .tooFewGCPs: throw EditorError(.tooFewPoints, at: e.location.flatMap { $0 == "session" ? nil : $0 }, e.message)
            case .degenerateGCPs: throw EditorError(.collinear, e.message)
            case .invalidCoordinate: throw EditorError(.invalidGround, at: e.location, e.message)
            case .gcpOutsideImage: throw EditorError(.pixelOutsideScan, at: e.location, e.message)
            default: throw EditorError(.fitFailed, at: e.location, e.message)
            }
        }
        self.check = check
        georeference = fitted
        let report = fitted.report
        var warnings: [FitResult.Warning] = []
        for d in check.duplicates {
            warnings.append(
                .init(code: "duplicate", message: "point \(d.id) has the same pixel or ground position as \(d.of); left out of the fit", id: d.id))
        }
        let enabled = check.set.enabled
        if report.leaveOneOutRMSE.divisor == 0 {
            warnings.append(
                .init(
                    code: "too_few_points",
                    message: "\(enabled.count) points leave none to spare for \(fitted.kind.rawValue): no leave-one-out error; add points"))
        }
        if let ratio = Self.spread(enabled.map(\.pixel)), ratio < 0.02 {
            warnings.append(
                .init(
                    code: "collinear",
                    message: String(
                        format:
                            "the enabled points lie almost on a line (spread across it %.1f%% of along it): the fit is poorly determined away from it; add points off the line",
                        ratio * 100)))
        }
        if report.distortion.foldOverSamples > 0 {
            warnings.append(
                .init(
                    code: "fold_over",
                    message:
                        "the map folds over at \(report.distortion.foldOverSamples) of \(report.distortion.samples) sample points: \(fitted.kind.rawValue) is not one-to-one over this scan"
                ))
        }
        if fitted.kind == .tps {
            warnings.append(
                .init(
                    code: "tps_interpolates",
                    message: "tps passes through every point: its residuals are zero by construction; read the leave-one-out figures"))
        }
        let rows = Dictionary(report.gcps.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for r in report.gcps where r.outlier {
            warnings.append(
                .init(
                    code: "outlier",
                    message: String(
                        format: "point %@ looks like an outlier: leave-one-out error %.0f m, over 3× the median", r.id, r.leaveOneOutMetres ?? 0),
                    id: r.id))
        }
        let figures = check.set.gcps.map { g -> FitResult.Figures in
            let r = rows[g.id]
            let v = r?.residualPixelVector ?? []
            return FitResult.Figures(
                id: g.id, residualPx: (r?.residualPixels).finite, residualM: (r?.residualMetres).finite,
                looM: (r?.leaveOneOutMetres).finite, dxPx: v.first.finite, dyPx: v.dropFirst().first.finite,
                enabled: g.enabled, outlier: r?.outlier ?? false)
        }
        let comparison = (try? Georeferencer.compare(check.set, imageWidth: width, imageHeight: height)) ?? []
        let line = comparison.map { c in
            c.looMetres.map { String(format: "%@ %.4g m", c.kind.rawValue, $0) } ?? "\(c.kind.rawValue) –"
        }.joined(separator: ", ")
        result = FitResult(
            transform: fitted.kind, chosenBy: report.chosenBy, rmseM: report.rmse.metres.finite,
            rmsePx: report.rmse.pixels.finite, looRmseM: report.leaveOneOutRMSE.metres.finite, gcps: figures,
            warnings: warnings, comparison: "leave-one-out RMSE: " + line,
            version: FitIdentity(scan: scanPath, georeference: fitted).version)
    }

    /// Minor over major axis of the points' spread (square roots of the covariance's
    /// eigenvalues); nil for fewer than three points.
    static func spread(_ p: [PixelPoint]) -> Double? {
        guard p.count >= 3 else { return nil }
        let axes = PointScatter(x: p.map(\.x), y: p.map(\.y)).axes
        guard axes.major > 0 else { return 0 }
        return (axes.minor / axes.major).squareRoot()
    }
}
