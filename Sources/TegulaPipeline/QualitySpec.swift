/// `quality:`: the limits a sheet's fit must keep to be drawn, and what to do with one that does
/// not. Every limit is optional; a sheet fails when any figure it has exceeds its limit
/// (``SheetFigures``).
public struct QualitySpec: Sendable, Hashable, Codable {
    /// What happens to a sheet that fails.
    public enum OnFail: String, Sendable, Hashable, Codable {
        /// Leave it out of the run and the composite; the run goes on (exit 0).
        case skip
        /// Stop the run before any stage (exit 1).
        case stop
    }

    /// Root mean square of the GCP residuals, ground metres (tie pins not counted).
    public var maxRMSEMetres: Double?
    /// Root mean square of the leave-one-out errors, ground metres.
    public var maxLeaveOneOutMetres: Double?
    /// Largest seam error at the sheet's ties after the joint fit, ground metres.
    public var maxSeamMetres: Double?
    /// Standard error of a tied sheet's place (``SheetFigures/placeStandardErrorMetres``), ground
    /// metres: the limit that holds a sheet placed by its ties to how well its group's GCPs fix it.
    public var maxPlaceStandardErrorMetres: Double?
    /// Largest over smallest ground scale (metres per scan pixel) over the sheet; 1 = uniform.
    public var maxDistortion: Double?
    /// Default `skip`.
    public var onFail: OnFail

    enum CodingKeys: String, CodingKey, CaseIterable {
        case maxRMSEMetres = "max_rmse_m", maxLeaveOneOutMetres = "max_loo_m", maxSeamMetres = "max_seam_m"
        case maxPlaceStandardErrorMetres = "max_place_se_m", maxDistortion = "max_distortion", onFail = "on_fail"
    }
}

extension QualitySpec: StrictDecodable {
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        /// A limit: a finite number of at least `least` (a distortion is a ratio, never under 1).
        func limit(_ key: CodingKeys, least: Double = 0, why: String = "") throws -> Double? {
            guard let v = try c.decodeIfPresent(Double.self, forKey: key) else { return nil }
            guard v.isFinite, v >= least else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: c, debugDescription: "\(v) is not a limit: give a number ≥ \(least == 0 ? "0" : "1")\(why)")
            }
            return v
        }
        maxRMSEMetres = try limit(.maxRMSEMetres)
        maxLeaveOneOutMetres = try limit(.maxLeaveOneOutMetres)
        maxSeamMetres = try limit(.maxSeamMetres)
        maxPlaceStandardErrorMetres = try limit(.maxPlaceStandardErrorMetres)
        maxDistortion = try limit(
            .maxDistortion, least: 1, why: " (largest over smallest scale over the sheet: 1 is uniform, every sheet is at least 1)")
        let fail = try c.decodeIfPresent(String.self, forKey: .onFail) ?? "skip"
        guard let f = OnFail(rawValue: fail) else {
            throw DecodingError.dataCorruptedError(forKey: .onFail, in: c, debugDescription: "'\(fail)' is not an on_fail; expected skip or stop")
        }
        onFail = f
    }
}
