/// A coordinate reference system, parsed by PROJ once: the definition as given, its WKT and the
/// facts Tegula asks of it. A value, safe to share between threads; code that transforms
/// coordinates makes its own ``SpatialReference`` (a PROJ handle, never shared) with
/// ``makeReference()``.
public struct CRS: Sendable, Hashable, CustomStringConvertible, Codable {
    /// The definition as the user or the file gave it, trimmed ("EPSG:4326", a WKT, a PROJ string).
    public let definition: String
    /// The CRS as WKT (WKT1, what GDAL writes into GeoTIFF and VRT).
    public let wkt: String
    /// A short label: "EPSG:n" when PROJ identifies a code, else the CRS's name.
    public let label: String
    /// True for latitude/longitude CRSs.
    public let isGeographic: Bool

    /// Parse anything `OSRSetFromUserInput` understands; throws a ``GDALError`` naming the
    /// definition when PROJ does not know it.
    public init(_ definition: String) throws {
        let reference = try SpatialReference(definition)
        self.init(reference, definition: reference.definition)
    }

    /// The CRS a handle describes (e.g. a dataset's); its definition is the EPSG code when PROJ
    /// identifies one, else the WKT.
    public init(_ reference: SpatialReference) {
        self.init(reference, definition: nil)
    }

    private init(_ reference: SpatialReference, definition: String?) {
        let code = reference.authorityCode
        wkt = reference.wkt
        self.definition = definition ?? code ?? wkt
        label = code ?? reference.name
        isGeographic = reference.isGeographic
    }

    /// EPSG:4326, longitude first.
    public static let wgs84 = try! CRS("EPSG:4326")
    /// EPSG:3857, spherical Web Mercator: the tile grid's CRS.
    public static let webMercator = try! CRS("EPSG:3857")

    /// A new PROJ handle for this CRS, owned by the caller's thread.
    public func makeReference() -> SpatialReference {
        // The WKT came from PROJ itself, so it parses; the definition is kept as given.
        (try? SpatialReference(wkt, definition: definition)) ?? (try! SpatialReference(definition))
    }

    /// True when both describe the same CRS: equal WKT, else PROJ's `OSRIsSame`.
    public func isSame(as other: CRS) -> Bool {
        wkt == other.wkt || makeReference().isSame(as: other.makeReference())
    }

    /// Two CRSs are equal when their WKT is; the definition's spelling does not matter.
    public static func == (a: CRS, b: CRS) -> Bool { a.wkt == b.wkt }

    /// Hashes the WKT, as `==` compares it.
    public func hash(into hasher: inout Hasher) { hasher.combine(wkt) }

    /// The definition as given.
    public var description: String { definition }

    /// Decodes a definition string and parses it.
    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        let text = try c.decode(String.self)
        do { try self.init(text) } catch {
            throw DecodingError.dataCorruptedError(
                in: c,
                debugDescription:
                    "unknown CRS '\(text.prefix(80))': expected e.g. EPSG:4326, EPSG:3857, a WKT or a PROJ string")
        }
    }

    /// Encodes the definition as given.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(definition)
    }
}
