import TegulaSupport

/// Everything the editor refuses, as one line: what, where (a field such as `gcps[2].ground`, a
/// GCP id, a file) and what would be right. The HTTP API answers it as 422 `{"error": …}`.
public typealias EditorError = LocatedError<EditorErrorReason>

/// The kinds of EditorError; ``code`` is the stable name the API sends with a refusal.
public enum EditorErrorReason: String, Sendable, Hashable {
    /// The body is not a session (bad JSON, a missing or mistyped key).
    case badSession
    /// A ground coordinate that is not a finite number in range.
    case invalidGround
    /// A pixel that is not a finite number inside the scan.
    case pixelOutsideScan
    /// An unknown transform name or CRS.
    case badTransform, badCRS
    /// A mask vertex that is not two finite numbers or lies more than a scan size outside the
    /// scan, or a mask of fewer than three vertices.
    case badMask
    /// Fewer enabled points than the transform needs.
    case tooFewPoints
    /// The enabled points do not determine the transform (collinear or coincident).
    case collinear
    /// The fit failed for another reason (a CRS conversion, say).
    case fitFailed
    /// The output could not be written (nothing was replaced).
    case writeFailed
    /// The scan or a GCP file cannot be read.
    case unreadableInput

    /// The snake_case code the API sends.
    public var code: String {
        switch self {
        case .badSession: return "bad_session"
        case .invalidGround: return "invalid_ground"
        case .pixelOutsideScan: return "pixel_outside_scan"
        case .badTransform: return "bad_transform"
        case .badCRS: return "bad_crs"
        case .badMask: return "bad_mask"
        case .tooFewPoints: return "too_few_points"
        case .collinear: return "collinear"
        case .fitFailed: return "fit_failed"
        case .writeFailed: return "write_failed"
        case .unreadableInput: return "unreadable_input"
        }
    }
}
