import TegulaGDAL

/// The CRS a GCP fit is made in. It changes the map (a polynomial in degrees bends differently
/// from one in metres), so it is an explicit, reported choice: by default the GCPs' own CRS when
/// it is projected (as QGIS, GDAL and Allmaps) and EPSG:3857 for GCPs in longitude and latitude
/// (as Allmaps; ``GCPSet/fitCRSChoice(given:)``), ``gcp`` for the GCPs' own CRS whatever it is
/// (as gdalwarp), or any CRS PROJ knows.
public enum FitCRS: Sendable, Hashable, CustomStringConvertible, Codable {
    /// The GCPs' own CRS, whatever it is.
    case gcp
    /// One named CRS.
    case crs(CRS)

    /// EPSG:3857, the default for GCPs in longitude and latitude.
    public static var webMercator: FitCRS { .crs(.webMercator) }

    /// Parse `gcp` (any case) or a CRS definition; an unknown CRS is a ``GeoreferenceError``
    /// naming it.
    public init(parsing text: String) throws {
        let t = text.trimmingCharacters(in: .whitespaces)
        if t.lowercased() == "gcp" { self = .gcp; return }
        self = .crs(try CRS.parse(t))
    }

    /// The CRS the fit is made in for GCPs in `gcpCRS`.
    public func resolved(gcpCRS: CRS) -> CRS {
        switch self {
        case .gcp: return gcpCRS
        case .crs(let c): return c
        }
    }

    /// `gcp` or the CRS's definition, as written in files.
    public var description: String {
        switch self {
        case .gcp: return "gcp"
        case .crs(let c): return c.definition
        }
    }

    /// Decodes `gcp` or a CRS definition.
    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        let text = try c.decode(String.self)
        do { try self.init(parsing: text) } catch {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "\(error)")
        }
    }

    /// Encodes ``description``.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}

extension CRS {
    /// Parse a CRS definition as the georeference stage reports it: a ``GeoreferenceError``
    /// (`unknownCRS`) naming the definition and what would be right.
    public static func parse(_ definition: String, at location: String? = nil) throws -> CRS {
        do { return try CRS(definition) } catch {
            throw GeoreferenceError(
                .unknownCRS, at: location,
                "unknown CRS '\(definition.prefix(80))': expected e.g. EPSG:4326, EPSG:3857, `gcp`, a WKT or a PROJ string")
        }
    }
}
