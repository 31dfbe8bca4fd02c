import Foundation
import TegulaComposite
import TegulaGeoreference
import TegulaSupport

/// One sheet's figures for the sheet index and the quality gate, from its fit's report (tie pins
/// left out of the GCP figures) and the joint fit's ties. Ground metres are great-circle metres,
/// as in ``GeoreferenceReport``.
public struct SheetFigures: Sendable, Codable, Equatable {
    /// The map's name.
    public var name: String
    /// The sheet list's `title`, `date` and `source` cells, when it has them.
    public var title: String?
    public var date: String?
    public var source: String?
    /// `gcps` (fitted), `ties` (no GCPs of its own: placed by its ties), `bounds` or `own` (the
    /// scan carries its georeference).
    public var georeference: String
    /// For a sheet placed by its ties: how many ties lie between it and the nearest sheet with GCPs.
    public var hops: Int?
    /// The transform fitted (GCP maps only).
    public var transform: String?
    /// Enabled GCPs (tie pins not counted).
    public var gcps: Int?
    /// Ties the sheet takes part in.
    public var ties: Int
    /// RMSE of the GCP residuals, metres.
    public var rmseMetres: Double?
    /// RMSE of the leave-one-out errors, metres.
    public var leaveOneOutMetres: Double?
    /// The largest GCP residual, metres, and its GCP.
    public var worstResidualMetres: Double?
    public var worstGCP: String?
    /// For a tied sheet: the standard error of its place, metres, from the errors its group's GCPs
    /// and ties show, carried through the joint fit (``SheetFit/placeStandardErrorMetres``).
    public var placeStandardErrorMetres: Double?
    /// Largest over smallest ground metres per scan pixel over the sheet (1 = uniform).
    public var scaleDistortion: Double?
    /// Largest angular distortion, degrees.
    public var angularDistortionDegrees: Double?
    /// Largest seam error at the sheet's ties with every sheet fitted alone, and after the joint fit.
    public var seamBeforeMetres: Double?
    public var seamAfterMetres: Double?
    /// The composite's tone correction of the sheet (`composite.tone`), red, green and blue:
    /// `level × gain + offset`; nil when tone matching is off.
    public var toneGain: [Double]?
    public var toneOffset: [Double]?
    /// What each channel's tone gain was solved from (``ToneMatch/GainBasis``): the spreads of
    /// overlaps with contrast, flat overlaps' means (sea, blank paper, or an island of contrast
    /// set against the rest through them: a guess) or nothing (gain 1); nil when tone matching is
    /// off.
    public var toneGainFrom: [ToneMatch.GainBasis]?
    /// For a map georeferenced by `match:`: whether its scan matched the reference, the points'
    /// mean match score (normalised cross-correlation, 0–1), how many points were proposed and
    /// the share of the scan the reference covers (0–1); nil for other maps.
    public var matched: Bool?
    public var matchScore: Double?
    public var matchPoints: Int?
    public var matchCoverage: Double?
    /// The fitted footprint (mask or scan border), `[lon, lat]`, closed; nil without a GCP fit.
    public var footprint: [[Double]]?
    /// `ok`, `skipped` (failed the gate and left out) or `failed` (failed it, run stopped).
    public var quality: String = "ok"
    /// Why it failed the gate, one phrase per limit.
    public var failures: [String] = []
    /// Why the sheet could not be fitted, when it could not (it then fails any gate).
    public var error: String?

    enum CodingKeys: String, CodingKey {
        case name, title, date, source, georeference, hops, transform, gcps, ties, quality, failures, error
        case rmseMetres = "rmse_m", leaveOneOutMetres = "loo_m", placeStandardErrorMetres = "place_se_m", worstResidualMetres = "worst_residual_m",
            worstGCP = "worst_gcp"
        case scaleDistortion = "scale_distortion", angularDistortionDegrees = "angular_distortion_deg"
        case seamBeforeMetres = "seam_before_m", seamAfterMetres = "seam_after_m"
        case footprint
        case toneGain = "tone_gain", toneOffset = "tone_offset", toneGainFrom = "tone_gain_from"
        case matched, matchScore = "match_score", matchPoints = "match_points", matchCoverage = "match_coverage"
    }

    /// Figures of a map without a GCP fit.
    init(name: String, georeference: String) {
        self.name = name
        self.georeference = georeference
        ties = 0
    }

    /// Figures of a GCP fit; `pins` are the ids of tie pins among its GCPs, `seams` the sheet's
    /// ties' figures. A NaN residual or seam makes its figure NaN (``WorstError``), never dropped,
    /// so the gate fails it.
    init(name: String, report r: GeoreferenceReport, pins: Set<String>, seams: [TieFigures]) {
        self.name = name
        georeference = "gcps"
        transform = r.transform.name
        let own = r.gcps.filter { $0.enabled && !pins.contains($0.id) }
        gcps = own.count
        ties = seams.count
        func rms(_ v: [Double]) -> Double? {
            v.isEmpty ? nil : (v.reduce(0) { $0 + $1 * $1 } / Double(v.count)).squareRoot()
        }
        let residuals = own.map(\.residualMetres)
        rmseMetres = rms(residuals)
        leaveOneOutMetres = rms(own.compactMap(\.leaveOneOutMetres))
        if let worst = WorstError.of(residuals) {
            worstResidualMetres = worst
            worstGCP = residuals.firstIndex { $0 == worst || $0.isNaN && worst.isNaN }.map { own[$0].id }
        }
        let s = r.distortion.scaleMetresPerPixel
        scaleDistortion = s.count == 3 && s[0] > 0 ? s[2] / s[0] : nil
        angularDistortionDegrees = r.distortion.maxAngularDistortionDegrees
        seamBeforeMetres = WorstError.of(seams.map(\.seamBeforeMetres))
        seamAfterMetres = WorstError.of(seams.map(\.seamAfterMetres))
        footprint = r.footprint.isEmpty ? nil : r.footprint
    }

    /// A sheet placed by its ties: its distance in ties, and for RMSE and leave-one-out its
    /// ties' figures (``TiePlacement``), which the gate holds to `max_rmse_m` and `max_loo_m`.
    mutating func place(_ p: TiePlacement) {
        georeference = "ties"
        hops = p.hops
        rmseMetres = p.rmseMetres
        leaveOneOutMetres = p.leaveOneOutMetres
    }

    /// The match's verdict, score, point count and coverage joined to the figures.
    mutating func join(_ match: ReferenceMatch) {
        matched = match.matched
        matchScore = match.score
        matchPoints = match.points
        matchCoverage = match.coverage
    }

    /// A figure as a person reads it: four significant digits, never in powers of ten above 1
    /// (12345.6 → 12346, 9000 → 9000, 0.01234 → 0.01234).
    static func plain(_ v: Double) -> String {
        abs(v) >= 1000 ? String(format: "%.0f", v) : String(format: "%.4g", v)
    }

    /// The limits of `quality` this sheet exceeds, one phrase each (empty: it passes). A figure
    /// the sheet does not have (no GCP fit, no ties) is not checked; a NaN figure fails.
    func exceeded(_ q: QualitySpec) -> [String] {
        var out: [String] = error.map { ["cannot be fitted: \($0)"] } ?? []
        func check(_ value: Double?, _ limit: Double?, _ key: String, _ what: String) {
            guard let value, let limit, !(value <= limit) else { return }
            out.append(
                value.isNaN
                    ? "\(what) is NaN (not a number: the fit broke), so it cannot be held to \(key) \(Self.plain(limit))"
                    : "\(what) \(Self.plain(value)) > \(key) \(Self.plain(limit))")
        }
        check(rmseMetres, q.maxRMSEMetres, "max_rmse_m", "RMSE (m)")
        check(leaveOneOutMetres, q.maxLeaveOneOutMetres, "max_loo_m", "leave-one-out RMSE (m)")
        check(seamAfterMetres, q.maxSeamMetres, "max_seam_m", "seam error (m)")
        check(placeStandardErrorMetres, q.maxPlaceStandardErrorMetres, "max_place_se_m", "standard error of its place (m)")
        check(scaleDistortion, q.maxDistortion, "max_distortion", "scale distortion")
        return out
    }
}
