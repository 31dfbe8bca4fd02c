import Foundation
import TegulaSupport

/// The transforms Tegula fits from GCPs (pixel → ground), with their minimum GCP counts.
///
/// Names follow GDAL (`-order N`, `-tps`) and Allmaps (`helmert`, `projective`,
/// `thinPlateSpline`, `straight`); parsed from a name by ``init(name:)``, the one parser the command line and
/// pipeline files share.
public enum TransformKind: String, CaseIterable, NamedValue, Codable {
    /// Similarity: scale, rotation and shift (4 parameters), with the row axis flipped so that
    /// image-up maps to north; ≥2 GCPs.
    case helmert
    /// Affine, GDAL `-order 1` (6 parameters); ≥3 GCPs.
    case polynomial1
    /// Second-order polynomial, GDAL `-order 2` (12 parameters); ≥6 GCPs.
    case polynomial2
    /// Third-order polynomial, GDAL `-order 3` (20 parameters); ≥10 GCPs.
    case polynomial3
    /// Projective (homography, 8 parameters); ≥4 GCPs.
    case projective
    /// Thin plate spline, GDAL `-tps`: interpolates every GCP exactly; ≥3 non-collinear GCPs.
    case tps
    /// Allmaps' `straight`: one scale and a shift, no rotation (3 parameters, scale from the
    /// Helmert fit as Allmaps takes it, ``StraightTransform``); ≥2 GCPs. Fitted when named, never
    /// chosen by ``Georeferencer/choiceRule``.
    case straight

    /// The transforms ``Georeferencer/choiceRule`` chooses among, simplest first: all but
    /// `straight`, which only a user or a file names (its scale is not a least-squares fit of its
    /// own model, so its leave-one-out figure does not compare like for like).
    public static let chosenAmong: [TransformKind] = [.helmert, .polynomial1, .projective, .polynomial2, .polynomial3, .tps]

    /// Parse a user-supplied name: the raw values, plus "affine" for polynomial1, "polynomial"
    /// for polynomial1 and "thinPlateSpline"/"thin-plate-spline" for tps; nil otherwise.
    public init?(name: String) {
        let n = name.trimmingCharacters(in: .whitespaces)
        if let k = TransformKind(rawValue: n) { self = k; return }
        switch n.lowercased() {
        case "affine", "polynomial", "poly1", "order1": self = .polynomial1
        case "poly2", "order2": self = .polynomial2
        case "poly3", "order3": self = .polynomial3
        case "thinplatespline", "thin-plate-spline", "thin_plate_spline": self = .tps
        case "similarity": self = .helmert
        case "homography", "perspective": self = .projective
        default:
            if let k = TransformKind(rawValue: n.lowercased()) { self = k; return }
            return nil
        }
    }

    /// The fewest non-degenerate GCPs that determine the transform.
    public var minimumGCPs: Int {
        switch self {
        case .helmert, .straight: return 2
        case .polynomial1: return 3
        case .polynomial2: return 6
        case .polynomial3: return 10
        case .projective: return 4
        case .tps: return 3
        }
    }

    /// Number of free parameters per fit (for RMSE divisors and reports); TPS: 2·(n + 3).
    public func parameterCount(gcps n: Int) -> Int {
        switch self {
        case .helmert: return 4
        case .straight: return 3
        case .polynomial1: return 6
        case .polynomial2: return 12
        case .polynomial3: return 20
        case .projective: return 8
        case .tps: return 2 * (n + 3)
        }
    }

    /// The canonical name (the raw value).
    public var name: String { rawValue }
    /// The canonical names with their common aliases, for help and error messages.
    public static var names: [String] {
        ["helmert", "polynomial1 (affine)", "polynomial2", "polynomial3", "projective", "tps (thinPlateSpline)", "straight"]
    }
    /// "transform".
    public static var kind: String { "transform" }

    /// Decodes a name with ``init(name:)``.
    public init(from decoder: Decoder) throws { self = try Self.decodeNamed(from: decoder) }
    /// Encodes the canonical name.
    public func encode(to encoder: Encoder) throws { try encodeName(to: encoder) }
}
