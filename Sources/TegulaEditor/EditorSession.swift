import Foundation
import TegulaGDAL
import TegulaGeoreference

/// One control point as the editor holds it; `id` stays the same through every edit.
public struct EditorGCP: Codable, Sendable, Equatable {
    /// Unique within the session.
    public var id: String
    /// `[x, y]` in scan pixels, GDAL convention ((0,0) = top-left corner).
    public var pixel: [Double]
    /// `[x, y]` in the session's `gcp_srs` (`[lon, lat]` for a geographic CRS).
    public var ground: [Double]
    /// False: reported as a check point, left out of the fit.
    public var enabled: Bool
    /// A name or note; free text.
    public var note: String

    /// A point from its parts.
    public init(id: String, pixel: [Double], ground: [Double], enabled: Bool = true, note: String = "") {
        self.id = id
        self.pixel = pixel
        self.ground = ground
        self.enabled = enabled
        self.note = note
    }

    enum CodingKeys: String, CodingKey { case id, pixel, ground, enabled, note }

    /// `enabled` defaults to true and `note` to empty when absent.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        pixel = try c.decode([Double].self, forKey: .pixel)
        ground = try c.decode([Double].self, forKey: .ground)
        enabled = try c.decodeIfPresent(Bool.self, forKey: .enabled) ?? true
        note = try c.decodeIfPresent(String.self, forKey: .note) ?? ""
    }
}

/// What the editor edits and the API carries: `{"gcps", "gcp_srs", "transform", "mask", "output"}`.
/// Undo lives in the page; the server keeps the last one in the autosave sidecar.
public struct EditorSession: Codable, Sendable, Equatable {
    /// The points in the order they were placed.
    public var gcps: [EditorGCP]
    /// The CRS of every `ground` (`EPSG:4326` unless the GCP file said otherwise).
    public var gcpSRS: String
    /// `auto` (the lowest leave-one-out error, ``Georeferencer/choiceRule``) or a transform name.
    public var transform: String
    /// The neatline in scan pixels, `[[x, y], …]`, or nil for none.
    public var mask: [[Double]]?
    /// Where Save writes; its extension names the format.
    public var output: String

    /// The name of the automatic choice.
    public static let auto = "auto"

    /// A session from its parts.
    public init(gcps: [EditorGCP] = [], gcpSRS: String = "EPSG:4326", transform: String = EditorSession.auto,
                mask: [[Double]]? = nil, output: String) {
        self.gcps = gcps
        self.gcpSRS = gcpSRS
        self.transform = transform
        self.mask = mask
        self.output = output
    }

    enum CodingKeys: String, CodingKey {
        case gcps, gcpSRS = "gcp_srs", transform, mask, output
    }

    /// `gcp_srs` defaults to EPSG:4326, `transform` to auto, `mask` to null, `output` to empty
    /// (the server's own output is used).
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        gcps = try c.decode([EditorGCP].self, forKey: .gcps)
        gcpSRS = try c.decodeIfPresent(String.self, forKey: .gcpSRS) ?? "EPSG:4326"
        transform = try c.decodeIfPresent(String.self, forKey: .transform) ?? Self.auto
        mask = try c.decodeIfPresent([[Double]].self, forKey: .mask)
        output = try c.decodeIfPresent(String.self, forKey: .output) ?? ""
    }

    /// Every key written, `mask` as null when there is none.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(gcps, forKey: .gcps)
        try c.encode(gcpSRS, forKey: .gcpSRS)
        try c.encode(transform, forKey: .transform)
        if let mask { try c.encode(mask, forKey: .mask) } else { try c.encodeNil(forKey: .mask) }
        try c.encode(output, forKey: .output)
    }

    /// A session from a GCP set read from a file: ids kept, notes empty, the file's transform
    /// hint as the transform, its mask as the mask. Ground coordinates in another CRS are
    /// converted to WGS 84 longitude/latitude (the page places them on a web map), and saved so.
    public init(_ set: GCPSet, output: String) throws {
        var xs = set.gcps.map(\.ground.x), ys = set.gcps.map(\.ground.y)
        if !set.crs.isSame(as: .wgs84) {
            try Self.toLonLat(from: set.crs, x: &xs, y: &ys, at: set.source)
        }
        gcps = set.gcps.enumerated().map { i, g in
            EditorGCP(id: g.id, pixel: [g.pixel.x, g.pixel.y], ground: [xs[i], ys[i]], enabled: g.enabled)
        }
        gcpSRS = "EPSG:4326"
        transform = set.transformHint?.name ?? Self.auto
        mask = set.mask.map { $0.map { [$0.x, $0.y] } }
        self.output = output
    }

    /// Convert ground coordinates in `crs` to WGS 84 longitude/latitude in place; a point PROJ
    /// cannot convert is a ``EditorError`` naming it.
    public static func toLonLat(from crs: CRS, x: inout [Double], y: inout [Double], at place: String) throws {
        let t: CoordinateTransformation
        do { t = try CoordinateTransformation(from: crs.makeReference(), to: CRS.wgs84.makeReference()) } catch {
            throw EditorError(.badCRS, at: place, "no conversion from \(crs.label) to WGS 84: \(error)")
        }
        let ok = t.transform(x: &x, y: &y)
        if let bad = ok.firstIndex(of: false) {
            throw EditorError(.invalidGround, at: place, "point \(bad + 1) cannot be converted from \(crs.label) to longitude/latitude")
        }
    }

    /// The session parsed from JSON; a ``EditorError`` (`badSession`) naming the key otherwise.
    public static func decode(_ data: Data) throws -> EditorSession {
        do { return try JSONDecoder().decode(EditorSession.self, from: data) } catch let DecodingError.keyNotFound(key, ctx) {
            throw EditorError(.badSession, at: path(ctx.codingPath + [key]), "missing; a session is {\"gcps\": [{\"id\", \"pixel\": [x, y], \"ground\": [lon, lat], \"enabled\", \"note\"}], \"gcp_srs\", \"transform\", \"mask\", \"output\"}")
        } catch let DecodingError.typeMismatch(_, ctx) {
            throw EditorError(.badSession, at: path(ctx.codingPath), "wrong type: \(ctx.debugDescription)")
        } catch let DecodingError.valueNotFound(_, ctx) {
            throw EditorError(.badSession, at: path(ctx.codingPath), "null where a value is needed")
        } catch {
            throw EditorError(.badSession, at: "body", "not a JSON session: \(error.localizedDescription)")
        }
    }

    static func path(_ keys: [any CodingKey]) -> String {
        keys.map { k in k.intValue.map { "[\($0)]" } ?? ".\(k.stringValue)" }.joined().trimmingCharacters(in: CharacterSet(charactersIn: "."))
    }

    /// Pretty, key-sorted JSON (what the sidecar holds and `GET /api/session` answers).
    public func json() -> Data {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try? e.encode(self)) ?? Data("{}".utf8)
    }
}
