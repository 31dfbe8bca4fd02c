import Foundation
import TegulaGDAL
import TegulaGeometry

/// Reads Allmaps' GeoreferencedMap, the JSON form the Allmaps API and CLI hand out beside the
/// Georeference Annotation, in both its versions (@allmaps/annotation `map.1`/`map.2`):
///
/// - version 2, `"type": "GeoreferencedMap"`: `gcps` as `{resource: [x, y], geo: [lon, lat]}`,
///   `resourceMask` as `[[x, y], …]`, `transformation` as in the annotation, and `resourceCrs`,
///   the scan's own projection, which Allmaps fits in;
/// - version 1, no `type` and `"version": 1` (the default): `gcps` as
///   `{image: [x, y], world: [lon, lat]}`, `pixelMask` as `[[x, y], …]`, `image` as
///   `{uri, width, height}`, and (in its later releases) `transformation`.
///
/// The image size either form carries (`resource`/`image` `width`, `height`) is not read: the
/// scan itself says how large it is.
enum GeoreferencedMapReader {
    /// The `type` value that marks a version-2 GeoreferencedMap.
    static let type = "GeoreferencedMap"

    /// The member names of one version of the map.
    struct Form {
        let pixel: String, ground: String, mask: String

        static let v2 = Form(pixel: "resource", ground: "geo", mask: "resourceMask")
        static let v1 = Form(pixel: "image", ground: "world", mask: "pixelMask")
    }

    /// The form `object` is written in, or nil when it is no GeoreferencedMap (an annotation).
    /// A version-1 map has no `type` and a `version` of 1, or no `version` and its own `gcps`
    /// or `pixelMask`; any other `version` is refused, naming it.
    static func form(of object: [String: Any], source: String) throws -> Form? {
        if object["type"] as? String == type { return .v2 }
        guard object["type"] == nil else { return nil }
        if let version = object["version"] {
            guard let v = AllmapsReader.number(version), v == 1 else {
                throw GeoreferenceError(
                    .unknownFormat, at: "\(source): version",
                    "\(version) is not a version of Allmaps' map: expected 1 (or \"type\": \"GeoreferencedMap\" for version 2)")
            }
            return .v1
        }
        return object["gcps"] != nil || object["pixelMask"] != nil ? .v1 : nil
    }

    /// Parse one map object written in `form`.
    static func parse(_ map: [String: Any], form: Form, source: String, gcpCRS: CRS?) throws -> GCPSet {
        let shape = "{\"\(form.pixel)\": [x, y], \"\(form.ground)\": [lon, lat]}"
        guard let list = map["gcps"] else {
            throw GeoreferenceError(
                .unknownFormat, at: "\(source): gcps",
                "missing: a GeoreferencedMap lists its GCPs as [\(shape), …]")
        }
        guard let items = list as? [Any] else {
            throw GeoreferenceError(.unparseableRow, at: "\(source): gcps", "must be an array of \(shape) objects")
        }
        var gcps: [GCP] = []
        for (i, item) in items.enumerated() {
            let place = "\(source): gcps[\(i)]"
            guard let gcp = item as? [String: Any] else {
                throw GeoreferenceError(.unparseableRow, at: place, "must be an object \(shape)")
            }
            let pixel = try pair(gcp[form.pixel], at: "\(place).\(form.pixel)", "[x, y] pixel numbers")
            let ground = try pair(gcp[form.ground], at: "\(place).\(form.ground)", "[lon, lat] numbers")
            let id = (gcp["id"] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? "\(i + 1)"
            gcps.append(GCP(id: id, pixel: PixelPoint(x: pixel.0, y: pixel.1), ground: GroundPoint(x: ground.0, y: ground.1)))
        }
        return GCPSet(
            gcps: gcps, crs: gcpCRS ?? .wgs84, mask: try mask(map[form.mask], at: "\(source): \(form.mask)"),
            transformHint: AllmapsReader.transformation(map["transformation"]),
            fitCRSHint: try AllmapsReader.resourceCRS(map["resourceCrs"], at: "\(source): resourceCrs"),
            source: source)
    }

    /// A mask of at least three `[x, y]` pixel points at `place`; absent = no mask.
    static func mask(_ value: Any?, at place: String) throws -> [PixelPoint]? {
        guard let value, !(value is NSNull) else { return nil }
        guard let points = value as? [Any] else {
            throw GeoreferenceError(.badMask, at: place, "must be an array of [x, y] pixel points")
        }
        guard points.count >= 3 else {
            throw GeoreferenceError(.badMask, at: place, "a mask needs at least 3 [x, y] pixel points, got \(points.count)")
        }
        var mask = try points.enumerated().map { i, p in
            let xy = try pair(p, at: "\(place)[\(i)]", "[x, y] pixel numbers", reason: .badMask)
            return PixelPoint(x: xy.0, y: xy.1)
        }
        if mask.count > 3, mask.first == mask.last { mask.removeLast() }
        return mask
    }

    /// Two finite numbers `[a, b]`, else a located error saying what `what` should be.
    static func pair(
        _ value: Any?, at place: String, _ what: String,
        reason: GeoreferenceErrorReason = .unparseableRow
    ) throws -> (Double, Double) {
        guard let a = value as? [Any], a.count == 2, let x = AllmapsReader.number(a[0]), let y = AllmapsReader.number(a[1]) else {
            throw GeoreferenceError(reason, at: place, value == nil ? "missing; expected \(what)" : "must be \(what)")
        }
        guard x.isFinite, y.isFinite else {
            throw GeoreferenceError(.invalidCoordinate, at: place, "coordinates must be finite numbers")
        }
        return (x, y)
    }
}
