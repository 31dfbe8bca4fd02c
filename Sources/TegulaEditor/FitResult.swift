import Foundation
import TegulaGeoreference
import TegulaSupport

/// The answer of `POST /api/fit` and `PUT /api/session`: the transform fitted, its RMSE, figures
/// per point, warnings with stable codes, the six-transform comparison, and the fit's version
/// (overlay tile URLs carry it, so a changed fit is never served from a stale cache).
public struct FitResult: Codable, Sendable, Equatable {
    /// The transform fitted (the automatic choice named, not `auto`); on the wire its name.
    public var transform: TransformKind
    /// How it was chosen: "given" or the choice rule with every candidate's figure.
    public var chosenBy: String
    /// RMSE of the enabled points' residuals in ground metres (nil: not measurable).
    public var rmseM: Double?
    /// The same in scan pixels.
    public var rmsePx: Double?
    /// RMSE of the leave-one-out errors in metres (the honest figure for tps).
    public var looRmseM: Double?
    /// Per point, in session order.
    public var gcps: [Figures]
    /// Things worth knowing, with codes a script can switch on.
    public var warnings: [Warning]
    /// The leave-one-out RMSE of all six transforms on one line.
    public var comparison: String
    /// 16 hex digits naming the fit's inputs (scan, points, transform, mask).
    public var version: String

    /// One point's figures: residual (inverse(ground) − pixel) and leave-one-out error.
    public struct Figures: Codable, Sendable, Equatable {
        public var id: String
        /// |residual| in scan pixels.
        public var residualPx: Double?
        /// Residual in ground metres (great circle).
        public var residualM: Double?
        /// Leave-one-out error in metres (refit without the point, predict it).
        public var looM: Double?
        /// `[dx, dy]` of the pixel residual.
        public var dxPx: Double?
        public var dyPx: Double?
        /// Whether the point took part in the fit.
        public var enabled: Bool
        /// Flagged by the report's outlier rule.
        public var outlier: Bool

        enum CodingKeys: String, CodingKey {
            case id, residualPx = "residual_px", residualM = "residual_m", looM = "loo_m", dxPx = "dx_px", dyPx = "dy_px", enabled, outlier
        }
    }

    /// A warning: `too_few_points`, `collinear`, `duplicate`, `fold_over`, `outlier`,
    /// `tps_interpolates`; `id` names the point when there is one.
    public struct Warning: Codable, Sendable, Equatable {
        public var code: String
        public var message: String
        public var id: String?

        public init(code: String, message: String, id: String? = nil) {
            self.code = code
            self.message = message
            self.id = id
        }

        /// `id` is always written (null when none).
        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(code, forKey: .code)
            try c.encode(message, forKey: .message)
            if let id { try c.encode(id, forKey: .id) } else { try c.encodeNil(forKey: .id) }
        }

        enum CodingKeys: String, CodingKey { case code, message, id }
    }

    enum CodingKeys: String, CodingKey {
        case transform, chosenBy = "chosen_by", rmseM = "rmse_m", rmsePx = "rmse_px", looRmseM = "loo_rmse_m", gcps, warnings,
            comparison, version
    }

    /// Pretty, key-sorted JSON.
    public func json() -> Data {
        (try? JSONStyle.readable.encode(self)) ?? Data("{}".utf8)
    }
}

extension Optional where Wrapped == Double {
    /// nil for NaN and infinities (JSON has no such numbers).
    var finite: Double? { flatMap { $0.isFinite ? $0 : nil } }
}
