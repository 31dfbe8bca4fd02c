import Foundation
import TegulaGDAL
import TegulaGeometry

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
                throw GeoreferenceError(
                    .unknownTransform, at: "\(source): \(Self.transformKey)",
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

    /// Where a GCP file without room for the fit (QGIS `.points`, CSV) keeps it: `FILE.fit` beside
    /// it, the ``metadataItems`` as `KEY=VALUE` lines (QGIS reads the `.points` file untouched).
    public static func sidecarPath(forGCPFile path: String) -> String { path + ".fit" }

    /// The sidecar's text: one `KEY=VALUE` line per metadata item, sorted.
    public var sidecarText: String {
        metadataItems.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)\n" }.joined()
    }

    /// The fit stored beside a GCP file, or nil when there is no sidecar; items that do not
    /// parse are an error naming the sidecar.
    public static func sidecar(forGCPFile path: String) throws -> StoredFit? {
        let side = sidecarPath(forGCPFile: path)
        guard let data = FileManager.default.contents(atPath: side) else { return nil }
        var items: [String: String] = [:]
        for line in String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline) {
            guard let eq = line.firstIndex(of: "=") else { continue }
            items[line[..<eq].trimmingCharacters(in: .whitespaces)] = line[line.index(after: eq)...].trimmingCharacters(in: .whitespaces)
        }
        return try StoredFit(metadata: items, source: side)
    }
}
