/// Everything measured about one fit, as written to `--report` JSON (keys in snake_case):
/// residuals in ground metres and source pixels, leave-one-out errors, RMSE with its divisor,
/// distortion, round trips.
///
/// Distances on the ground are great-circle metres on the mean Earth sphere (R = 6371008.8 m)
/// between longitude/latitude positions, whatever the fitting CRS; pixel distances are in source
/// pixels, through the exact inverse.
public struct GeoreferenceReport: Sendable, Codable {
    /// The transform fitted.
    public var transform: TransformKind
    /// "given", the file's hint, or the choice rule with every candidate's leave-one-out RMSE.
    public var chosenBy: String
    /// The CRS the transform was fitted in.
    public var fitSRS: String
    /// Why the fit was made in ``fitSRS``: given, the GCP file's own, the GCPs' own projected
    /// CRS, or EPSG:3857 for GCPs in longitude and latitude.
    public var fitSRSChosenBy: String
    /// The CRS of the GCP ground coordinates.
    public var gcpSRS: String
    /// Source image width in pixels.
    public var imageWidth: Int
    /// Source image height in pixels.
    public var imageHeight: Int
    /// Per-GCP figures, in file order (disabled GCPs included as check points).
    public var gcps: [GCPResidual]
    /// Root mean square of the enabled GCPs' residuals.
    public var rmse: RMSE
    /// Root mean square of the enabled GCPs' leave-one-out errors (the only honest figure for tps).
    public var leaveOneOutRMSE: RMSE
    /// How outliers are flagged.
    public var outlierRule: String
    /// Distortion of the scan → ground map sampled over the image.
    public var distortion: Distortion
    /// Worst |inverse(forward(p)) − p| on a grid over the image, in pixels.
    public var roundTripMaxPixels: Double
    /// Grid points where the inverse failed (0 for a healthy fit).
    public var roundTripFailures: Int
    /// The grid the round trip and distortion were sampled on.
    public var sampling: String
    /// The mask (or image border) through the forward transform, `[lon, lat]` in degrees, closed.
    public var footprint: [[Double]]
    /// Things worth knowing that are not errors.
    public var warnings: [String]

    /// The GCPs as viewer pins: position and honest error (leave-one-out for tps, whose ordinary
    /// residuals are zero; the residual otherwise).
    public var pins: [GCPPin] {
        gcps.map { g in
            GCPPin(
                name: g.id, longitude: g.lon, latitude: g.lat,
                residualMetres: transform == .tps ? (g.leaveOneOutMetres ?? g.residualMetres) : g.residualMetres)
        }
    }

    /// Keys in snake_case, as the editor's API and the tiles' metadata write theirs.
    enum CodingKeys: String, CodingKey {
        case transform, chosenBy = "chosen_by", fitSRS = "fit_srs", fitSRSChosenBy = "fit_srs_chosen_by", gcpSRS = "gcp_srs",
            imageWidth = "image_width", imageHeight = "image_height", gcps, rmse, leaveOneOutRMSE = "leave_one_out_rmse",
            outlierRule = "outlier_rule", distortion, roundTripMaxPixels = "round_trip_max_pixels",
            roundTripFailures = "round_trip_failures", sampling, footprint, warnings
    }
}

/// One GCP's figures in a ``GeoreferenceReport``.
public struct GCPResidual: Sendable, Codable, Equatable {
    /// The GCP's id (its name, or its row number when the file gives none).
    public var id: String
    /// False for GCPs switched off in the file: their residual is an independent check.
    public var enabled: Bool
    /// `[x, y]` in source pixels.
    public var pixel: [Double]
    /// `[X, Y]` in the GCP CRS.
    public var ground: [Double]
    /// The ground position's longitude in degrees.
    public var lon: Double
    /// The ground position's latitude in degrees.
    public var lat: Double
    /// Great-circle distance from the GCP to where the transform puts its pixel.
    public var residualMetres: Double
    /// Distance from the GCP's pixel to where the exact inverse puts its ground position.
    public var residualPixels: Double
    /// `[dx, dy]` of that pixel residual (inverse(ground) − pixel).
    public var residualPixelVector: [Double]
    /// Refit without this GCP, predict it: the error in metres (nil when the rest cannot be fitted).
    public var leaveOneOutMetres: Double?
    /// The same in source pixels.
    public var leaveOneOutPixels: Double?
    /// `[dx, dy]` of the leave-one-out pixel error.
    public var leaveOneOutPixelVector: [Double]?
    /// Flagged by the report's `outlier_rule`.
    public var outlier: Bool

    enum CodingKeys: String, CodingKey {
        case id, enabled, pixel, ground, lon, lat, residualMetres = "residual_metres", residualPixels = "residual_pixels",
            residualPixelVector = "residual_pixel_vector", leaveOneOutMetres = "leave_one_out_metres",
            leaveOneOutPixels = "leave_one_out_pixels", leaveOneOutPixelVector = "leave_one_out_pixel_vector", outlier
    }
}

/// A root mean square error with its divisor stated.
public struct RMSE: Sendable, Codable, Equatable {
    /// In ground metres (nil when nothing could be measured).
    public var metres: Double?
    /// In source pixels.
    public var pixels: Double?
    /// The number the sum of squares was divided by.
    public var divisor: Int
    /// What the divisor is, e.g. "n (enabled GCPs); QGIS divides by n − m".
    public var divisorIs: String

    enum CodingKeys: String, CodingKey {
        case metres, pixels, divisor, divisorIs = "divisor_is"
    }
}

/// Distortion of the fitted map, from its Jacobian in local east/north metres:
/// a, b = semi-axes of the Tissot ellipse of one pixel.
public struct Distortion: Sendable, Codable, Equatable {
    /// Number of sample points.
    public var samples: Int
    /// √(a·b): ground metres per source pixel, smallest, median and largest.
    public var scaleMetresPerPixel: [Double]
    /// Largest over smallest area scale a·b (1 = uniform scale).
    public var areaScaleRatio: Double
    /// Largest 2·asin((a − b)/(a + b)) in degrees (0 = conformal everywhere).
    public var maxAngularDistortionDegrees: Double
    /// Mean of the same.
    public var meanAngularDistortionDegrees: Double
    /// Samples where det J has the sign opposite to the majority: the map folds over there.
    public var foldOverSamples: Int

    enum CodingKeys: String, CodingKey {
        case samples, scaleMetresPerPixel = "scale_metres_per_pixel", areaScaleRatio = "area_scale_ratio",
            maxAngularDistortionDegrees = "max_angular_distortion_degrees",
            meanAngularDistortionDegrees = "mean_angular_distortion_degrees", foldOverSamples = "fold_over_samples"
    }
}

/// A GCP as a pin for the tile viewer's metadata (`gcps` key: name, lon, lat, residual_m).
public struct GCPPin: Sendable, Hashable, Codable {
    /// The GCP's id.
    public var name: String
    /// Longitude in degrees (`lon`).
    public var longitude: Double
    /// Latitude in degrees (`lat`).
    public var latitude: Double
    /// The honest error in metres (see ``GeoreferenceReport/pins``).
    public var residualMetres: Double

    /// A pin from its parts.
    public init(name: String, longitude: Double, latitude: Double, residualMetres: Double) {
        self.name = name
        self.longitude = longitude
        self.latitude = latitude
        self.residualMetres = residualMetres
    }

    enum CodingKeys: String, CodingKey {
        case name, longitude = "lon", latitude = "lat", residualMetres = "residual_m"
    }
}
