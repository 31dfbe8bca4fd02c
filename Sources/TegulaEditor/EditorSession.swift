import Foundation
import TegulaGDAL
import TegulaGeometry
import TegulaGeoreference
import TegulaSupport

/// One control point as the editor holds it; `id` stays the same through every edit. On the
/// wire `{"id", "pixel": [x, y], "ground": [x, y], "enabled", "note"}`.
public struct EditorGCP: Codable, Sendable, Equatable {
    /// Unique within the session.
    public var id: String
    /// In scan pixels, GDAL convention ((0,0) = top-left corner).
    public var pixel: PixelPoint
    /// In the session's ``EditorSession/gcpSRS`` (longitude, latitude for a geographic CRS).
    public var ground: GroundPoint
    /// False: reported as a check point, left out of the fit.
    public var enabled: Bool
    /// A name or note; free text.
    public var note: String

    /// A point from its parts.
    public init(id: String, pixel: PixelPoint, ground: GroundPoint, enabled: Bool = true, note: String = "") {
        self.id = id
        self.pixel = pixel
        self.ground = ground
        self.enabled = enabled
        self.note = note
    }

    /// The point as the fit and the GCP writers see it (the note left out).
    public var gcp: GCP { GCP(id: id, pixel: pixel, ground: ground, enabled: enabled) }

    enum CodingKeys: String, CodingKey { case id, pixel, ground, enabled, note }

    /// `enabled` defaults to true and `note` to empty when absent; a `pixel` or `ground` that is
    /// not two numbers is an ``EditorError`` naming the point (`gcps[2].pixel (Cape Ortegal)`).
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        let place = EditorSession.path(decoder.codingPath)
        let p = try c.decode([Double].self, forKey: .pixel)
        guard p.count == 2 else { throw EditorError.notAPoint(.pixelOutsideScan, at: "\(place).pixel (\(id))", "[x, y]") }
        pixel = PixelPoint(x: p[0], y: p[1])
        let g = try c.decode([Double].self, forKey: .ground)
        guard g.count == 2 else { throw EditorError.notAPoint(.invalidGround, at: "\(place).ground (\(id))", "[x, y] (lon, lat)") }
        ground = GroundPoint(x: g[0], y: g[1])
        enabled = try c.decodeIfPresent(Bool.self, forKey: .enabled) ?? true
        note = try c.decodeIfPresent(String.self, forKey: .note) ?? ""
    }

    /// Every key, `pixel` and `ground` as `[x, y]`.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode([pixel.x, pixel.y], forKey: .pixel)
        try c.encode([ground.x, ground.y], forKey: .ground)
        try c.encode(enabled, forKey: .enabled)
        try c.encode(note, forKey: .note)
    }
}

/// What the editor edits and the API carries: `{"gcps", "gcp_srs", "transform", "mask", "output"}`.
/// The CRS and the transform are parsed when the JSON is read (an unknown one is refused there,
/// naming its key); undo lives in the page; the server keeps the last one in the autosave sidecar.
public struct EditorSession: Codable, Sendable, Equatable {
    /// The points in the order they were placed.
    public var gcps: [EditorGCP]
    /// The CRS of every `ground` (EPSG:4326 unless the GCP file said otherwise); on the wire its
    /// definition.
    public var gcpSRS: CRS
    /// The transform to fit; nil for the automatic choice (the lowest leave-one-out error,
    /// ``Georeferencer/choiceRule``), `auto` on the wire.
    public var transform: TransformKind?
    /// The neatline in scan pixels, or nil for none; on the wire `[[x, y], …]` or null.
    public var mask: [PixelPoint]?
    /// Where Save writes; its extension names the format.
    public var output: String

    /// The name of the automatic choice on the wire.
    public static let auto = "auto"

    /// A session from its parts.
    public init(
        gcps: [EditorGCP] = [], gcpSRS: CRS = .wgs84, transform: TransformKind? = nil,
        mask: [PixelPoint]? = nil, output: String
    ) {
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
    /// (the server's own output is used). An unknown CRS or transform, or a mask vertex that is
    /// not two numbers, is an ``EditorError`` naming the key.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let srs = try c.decodeIfPresent(String.self, forKey: .gcpSRS) ?? "EPSG:4326"
        do { gcpSRS = try CRS(srs) } catch {
            throw EditorError(.badCRS, at: "gcp_srs", "unknown CRS '\(srs.prefix(80))': expected e.g. EPSG:4326 or EPSG:28992")
        }
        let name = try c.decodeIfPresent(String.self, forKey: .transform) ?? Self.auto
        if name == Self.auto {
            transform = nil
        } else if let k = TransformKind(name: name) {
            transform = k
        } else {
            throw EditorError(
                .badTransform, at: "transform", "unknown transform '\(name)': expected auto, \(TransformKind.names.joined(separator: ", "))")
        }
        gcps = try c.decode([EditorGCP].self, forKey: .gcps)
        mask = try c.decodeIfPresent([[Double]].self, forKey: .mask).map { m in
            try m.enumerated().map { i, v -> PixelPoint in
                guard v.count == 2 else { throw EditorError.notAPoint(.badMask, at: "mask[\(i)]", "[x, y]") }
                return PixelPoint(x: v[0], y: v[1])
            }
        }
        output = try c.decodeIfPresent(String.self, forKey: .output) ?? ""
    }

    /// Every key written: the CRS's definition, the transform's name or `auto`, `mask` as null
    /// when there is none.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(gcps, forKey: .gcps)
        try c.encode(gcpSRS.definition, forKey: .gcpSRS)
        try c.encode(transform?.name ?? Self.auto, forKey: .transform)
        if let mask { try c.encode(mask.map { [$0.x, $0.y] }, forKey: .mask) } else { try c.encodeNil(forKey: .mask) }
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
            EditorGCP(id: g.id, pixel: g.pixel, ground: GroundPoint(x: xs[i], y: ys[i]), enabled: g.enabled)
        }
        gcpSRS = .wgs84
        transform = set.transformHint
        mask = set.mask
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
        do { return try JSONDecoder().decode(EditorSession.self, from: data) } catch let e as EditorError {
            throw e
        } catch let DecodingError.keyNotFound(key, ctx) {
            throw EditorError(
                .badSession, at: path(ctx.codingPath + [key]),
                "missing; a session is {\"gcps\": [{\"id\", \"pixel\": [x, y], \"ground\": [lon, lat], \"enabled\", \"note\"}], \"gcp_srs\", \"transform\", \"mask\", \"output\"}"
            )
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
        (try? JSONStyle.readable.encode(self)) ?? Data("{}".utf8)
    }
}

extension LocatedError where Reason == EditorErrorReason {
    /// The refusal of a value at `place` that is not `pair` (`[x, y]`), two finite numbers.
    static func notAPoint(_ reason: EditorErrorReason, at place: String, _ pair: String) -> EditorError {
        EditorError(reason, at: place, "must be \(pair), two finite numbers")
    }
}
