import Foundation

/// Allmaps Georeference Annotations as the tests write them: one annotation of an IIIF image
/// service with its GCPs, the one builder TegulaInputsTests and the IIIF CLI tests share.
public enum AllmapsAnnotation {
    /// One control point: a pixel of the image (`x`, `y`) and where it lies (`longitude`, `latitude`).
    public struct Point: Sendable {
        public var x, y, longitude, latitude: Double

        public init(x: Double, y: Double, longitude: Double, latitude: Double) {
            self.x = x
            self.y = y
            self.longitude = longitude
            self.latitude = latitude
        }
    }

    /// The corners of a `width` × `height` image put over about 0.2° × 0.12° near Leiden (top left
    /// 4.40° E 52.22° N, clockwise), and with `centre` its centre at 4.505° E 52.16° N too.
    public static func leiden(width: Int, height: Int, centre: Bool = false) -> [Point] {
        let w = Double(width), h = Double(height)
        let corners = [
            Point(x: 0, y: 0, longitude: 4.40, latitude: 52.22), Point(x: w, y: 0, longitude: 4.60, latitude: 52.21),
            Point(x: w, y: h, longitude: 4.61, latitude: 52.10), Point(x: 0, y: h, longitude: 4.41, latitude: 52.11),
        ]
        return corners + (centre ? [Point(x: w / 2, y: h / 2, longitude: 4.505, latitude: 52.16)] : [])
    }

    /// A 5 × 5 grid of a `width` × `height` image's pixels (its corners, edges and centre
    /// included) where they lie when its pixels are a Web Mercator grid: the top-left corner at
    /// `left`, `top` (EPSG:3857) and `resolution` metres a pixel, in longitude and latitude by the
    /// spherical formulas.
    public static func mercatorGrid(width: Int, height: Int, left: Double, top: Double, resolution: Double) -> [Point] {
        let r = 6_378_137.0
        return (0...4).flatMap { i in
            (0...4).map { j -> Point in
                let x = Double(width) * Double(i) / 4, y = Double(height) * Double(j) / 4
                let easting = left + resolution * x, northing = top - resolution * y
                return Point(x: x, y: y, longitude: easting / r * 180 / .pi, latitude: atan(sinh(northing / r)) * 180 / .pi)
            }
        }
    }

    /// The annotation's JSON: id `https://annotations.example.org/maps/NAME`, motivation
    /// georeferencing, `target.source` the image service `service` of `type` with the size
    /// `width` × `height` it declares (which a test may set apart from the image's), and `gcps`
    /// as the features of its body (`resourceCoords` and a GeoJSON point each), as the Allmaps
    /// Georeference Annotation specification lays them out.
    public static func text(
        name: String, service: String, type: String = "ImageService2", width: Int, height: Int,
        gcps: [Point]
    ) -> String {
        let features = gcps.map { g in
            "{\"type\":\"Feature\",\"properties\":{\"resourceCoords\":[\(number(g.x)),\(number(g.y))]},"
                + "\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(number(g.longitude)),\(number(g.latitude))]}}"
        }.joined(separator: ",")
        return """
            {"@context":"http://iiif.io/api/extension/georef/1/context.json","id":"https://annotations.example.org/maps/\(name)",
             "type":"Annotation","motivation":"georeferencing",
             "target":{"type":"SpecificResource","source":{"id":"\(service)","type":"\(type)","width":\(width),"height":\(height)}},
             "body":{"type":"FeatureCollection","features":[\(features)]}}
            """
    }

    /// A whole number without a fraction, any other as Swift prints it.
    private static func number(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : "\(v)"
    }
}
