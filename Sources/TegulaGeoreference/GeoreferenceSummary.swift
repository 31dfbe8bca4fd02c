import Foundation
import TegulaSupport

/// What later stages and viewers need to know of a GCP fit once the scan is warped: its GCPs as
/// pins with their honest errors, and the scan's outline (mask or border) on the ground. Made
/// from a ``Georeference``, stored in the warp stage's GeoTIFF as metadata items and read back
/// with it, so the tile stage never goes back to the fit's report.
public struct GeoreferenceSummary: Sendable, Hashable, Codable {
    /// The metadata item holding ``pins`` as JSON.
    public static let pinsKey = "TEGULA_GCP_PINS"
    /// The metadata item holding ``footprint`` as JSON.
    public static let footprintKey = "TEGULA_FOOTPRINT"

    /// The GCPs as pins (name, lon/lat, error in metres).
    public var pins: [GCPPin]
    /// The outline, `[lon, lat]` in degrees, closed; empty when unknown.
    public var footprint: [[Double]]

    /// A summary from its parts.
    public init(pins: [GCPPin], footprint: [[Double]]) {
        self.pins = pins
        self.footprint = footprint
    }

    /// The summary of a fit.
    public init(_ georeference: Georeference) {
        self.init(pins: georeference.report.pins, footprint: georeference.report.footprint)
    }

    /// Read the items back; nil when the raster carries neither, an error when one is corrupt.
    public init?(metadata: [String: String], source: String) throws {
        let pinsText = metadata[Self.pinsKey], ringText = metadata[Self.footprintKey]
        if pinsText == nil && ringText == nil { return nil }
        func decode<T: Decodable>(_ text: String?, _ key: String) throws -> T? {
            guard let text else { return nil }
            do { return try JSONDecoder().decode(T.self, from: Data(text.utf8)) } catch {
                throw GeoreferenceError(.unparseableRow, at: "\(source): \(key)", "not the JSON Tegula writes: \(error)")
            }
        }
        pins = try decode(pinsText, Self.pinsKey) ?? []
        footprint = try decode(ringText, Self.footprintKey) ?? []
    }

    /// The metadata items to store (JSON, keys sorted so the bytes are stable).
    public var metadataItems: [String: String] {
        let encoder = JSONStyle.compact.escapingSlashes.encoder()
        var m: [String: String] = [:]
        if !pins.isEmpty, let d = try? encoder.encode(pins) { m[Self.pinsKey] = String(decoding: d, as: UTF8.self) }
        if footprint.count >= 4, let d = try? encoder.encode(footprint) { m[Self.footprintKey] = String(decoding: d, as: UTF8.self) }
        return m
    }
}
