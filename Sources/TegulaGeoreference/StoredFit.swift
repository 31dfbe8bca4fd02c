import TegulaGDAL

/// What a `tegula georef` output stores beside its GCPs so that every later reader reproduces the
/// same fit: the transform, the fitting CRS and the mask, as GDAL metadata items. Written by
/// ``GeoreferenceWriter`` through ``metadataItems``, read back only by ``init(metadata:source:)``.
public struct StoredFit: Sendable, Hashable {
    /// The metadata item holding the transform's name.
    public static let transformKey = "TEGULA_TRANSFORM"
    /// The metadata item holding the fitting CRS (`gcp` or a definition).
    public static let fitCRSKey = "TEGULA_FIT_SRS"
    /// The metadata item holding the mask polygon, WKT in scan pixels.
    public static let maskKey = "TEGULA_MASK"

    /// The transform fitted.
    public var transform: TransformKind?
    /// The CRS it was fitted in.
    public var fitCRS: FitCRS?
    /// The neatline in scan pixels.
    public var mask: [PixelPoint]?

    /// A stored fit from its parts.
    public init(transform: TransformKind?, fitCRS: FitCRS?, mask: [PixelPoint]?) {
        self.transform = transform
        self.fitCRS = fitCRS
        self.mask = mask
    }

    /// Read the items of a dataset's default metadata domain; items that are absent stay nil,
    /// items that do not parse are an error naming `source` and the item.
    public init(metadata: [String: String], source: String) throws {
        transform = try metadata[Self.transformKey].map { name in
            guard let k = TransformKind(name: name) else {
                throw GeoreferenceError(.unknownTransform, at: "\(source): \(Self.transformKey)",
                                        "unknown transform '\(name)': expected \(TransformKind.accepted)")
            }
            return k
        }
        fitCRS = try metadata[Self.fitCRSKey].map { try FitCRS(parsing: $0) }
        mask = try metadata[Self.maskKey].map { try MaskReader.parse($0, source: "\(source): \(Self.maskKey)") }
    }

    /// The metadata items to write.
    public var metadataItems: [String: String] {
        var m: [String: String] = [:]
        if let transform { m[Self.transformKey] = transform.name }
        if let fitCRS { m[Self.fitCRSKey] = fitCRS.description }
        if let mask, mask.count >= 3 { m[Self.maskKey] = MaskReader.wkt(mask) }
        return m
    }
}
