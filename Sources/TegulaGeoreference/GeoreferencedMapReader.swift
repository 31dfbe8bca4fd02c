import Foundation
import TegulaGDAL

/// Reads Allmaps' GeoreferencedMap, the JSON form the Allmaps API and CLI hand out beside the
/// Georeference Annotation: `gcps` as `{resource: [x, y], geo: [lon, lat]}`, `resourceMask` as
/// `[[x, y], …]`, `transformation` as in the annotation, and `resourceCrs`, the scan's own
/// projection, which Allmaps fits in (@allmaps/annotation `georeferenced-map.2`).
enum GeoreferencedMapReader {
    /// The `type` value that marks a GeoreferencedMap.
    static let type = "GeoreferencedMap"

    /// Parse one map object (its `type` already checked).
    static func parse(_ map: [String: Any], source: String, gcpCRS: CRS?) throws -> GCPSet {
        guard let list = map["gcps"] else {
            throw GeoreferenceError(.unknownFormat, at: "\(source): gcps",
                                    "missing: a GeoreferencedMap lists its GCPs as [{\"resource\": [x, y], \"geo\": [lon, lat]}, …]")
        }
        guard let items = list as? [Any] else {
            throw GeoreferenceError(.unparseableRow, at: "\(source): gcps",
                                    "must be an array of {\"resource\": [x, y], \"geo\": [lon, lat]} objects")
        }
        var gcps: [GCP] = []
        for (i, item) in items.enumerated() {
            let place = "\(source): gcps[\(i)]"
            guard let gcp = item as? [String: Any] else {
                throw GeoreferenceError(.unparseableRow, at: place, "must be an object {\"resource\": [x, y], \"geo\": [lon, lat]}")
            }
            let pixel = try pair(gcp["resource"], at: "\(place).resource", "[x, y] pixel numbers")
            let ground = try pair(gcp["geo"], at: "\(place).geo", "[lon, lat] numbers")
            let id = (gcp["id"] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? "\(i + 1)"
            gcps.append(GCP(id: id, pixel: PixelPoint(x: pixel.0, y: pixel.1), ground: GroundPoint(x: ground.0, y: ground.1)))
        }
        return GCPSet(gcps: gcps, crs: gcpCRS ?? .wgs84, mask: try mask(map["resourceMask"], source: source),
                      transformHint: AllmapsReader.transformation(map["transformation"]),
                      fitCRSHint: try AllmapsReader.resourceCRS(map["resourceCrs"], at: "\(source): resourceCrs"),
                      source: source)
    }

    /// `resourceMask`: at least three `[x, y]` pixel points; absent = no mask.
    static func mask(_ value: Any?, source: String) throws -> [PixelPoint]? {
        guard let value, !(value is NSNull) else { return nil }
        let place = "\(source): resourceMask"
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
    static func pair(_ value: Any?, at place: String, _ what: String,
                     reason: GeoreferenceErrorReason = .unparseableRow) throws -> (Double, Double) {
        guard let a = value as? [Any], a.count == 2, let x = AllmapsReader.number(a[0]), let y = AllmapsReader.number(a[1]) else {
            throw GeoreferenceError(reason, at: place, value == nil ? "missing; expected \(what)" : "must be \(what)")
        }
        guard x.isFinite, y.isFinite else {
            throw GeoreferenceError(.invalidCoordinate, at: place, "coordinates must be finite numbers")
        }
        return (x, y)
    }
}
