import Foundation
import TegulaGDAL
import TegulaGeometry
import TegulaSupport

/// Writes GCP files, each the pair of a ``GCPReader`` format (``GCPFormat``): QGIS `.points`
/// (``points(_:crs:residuals:)``, read by ``GCPReader/parsePoints(_:source:gcpCRS:)``),
/// MapWarper-style CSV (``csv(_:crs:)``, read by ``GCPReader/parseCSV(_:source:gcpCRS:)``), GDAL
/// text and ArcGIS' CSV and TSV (``gdal(_:)``, ``arcgisCSV(_:)``, ``arcgisTSV(_:)``, read by
/// ``GCPReader/read(path:gcpCRS:mapID:)``; they hold no CRS) and an
/// Allmaps Georeference Annotation (``allmapsAnnotation(_:crs:notes:transform:mask:scanPath:service:serviceType:width:height:)``,
/// read by ``GCPReader/read(path:gcpCRS:mapID:)``). What `.points` and CSV cannot hold (the
/// transform, the fitting CRS, the mask) goes in a ``StoredFit`` sidecar.
public enum GCPWriter {
    /// One point's residual as `.points` stores it: the pixel offset and its length (nil: 0).
    public struct Residual: Sendable, Equatable {
        /// Offset along x, scan pixels.
        public var dx: Double?
        /// Offset along y, scan pixels (down).
        public var dy: Double?
        /// Its length.
        public var pixels: Double?

        /// A residual from its parts.
        public init(dx: Double?, dy: Double?, pixels: Double?) {
            self.dx = dx
            self.dy = dy
            self.pixels = pixels
        }
    }

    /// QGIS `.points`: `#CRS:` with the WKT, then `mapX,mapY,sourceX,sourceY,enable,dX,dY,residual`
    /// (sourceY and dY negated, as QGIS stores them) and a `name` column QGIS ignores and Tegula
    /// reads as the id; every point, disabled ones with `enable` 0.
    public static func points(_ gcps: [GCP], crs: CRS, residuals: [String: Residual] = [:]) -> String {
        var text = "#CRS: \(crs.wkt)\nmapX,mapY,sourceX,sourceY,enable,dX,dY,residual,name\n"
        for g in gcps {
            let r = residuals[g.id]
            text += "\(g.ground.x),\(g.ground.y),\(g.pixel.x),\(-g.pixel.y),\(g.enabled ? 1 : 0),"
            text += "\(r?.dx ?? 0),\(-(r?.dy ?? 0)),\(r?.pixels ?? 0),\(field(g.id))\n"
        }
        return text
    }

    /// CSV `x,y,lon,lat,name` (`X,Y` for a projected CRS); only enabled points, as the format
    /// has no column to switch one off.
    public static func csv(_ gcps: [GCP], crs: CRS) -> String {
        var text = crs.isGeographic ? "x,y,lon,lat,name\n" : "x,y,X,Y,name\n"
        for g in gcps where g.enabled {
            text += "\(g.pixel.x),\(g.pixel.y),\(g.ground.x),\(g.ground.y),\(field(g.id))\n"
        }
        return text
    }

    /// GDAL text: `PIXEL LINE X Y` a line, separated by spaces, as `gdal_translate -gcp` takes
    /// them; only enabled points, without names (the form has room for neither). Every number
    /// with the digits that read back to it.
    public static func gdal(_ gcps: [GCP]) -> String {
        gcps.filter(\.enabled).map { "\($0.pixel.x) \($0.pixel.y) \($0.ground.x) \($0.ground.y)\n" }.joined()
    }

    /// ArcGIS CSV: `id,x,y,X,Y` a line, no header, the row negated (ArcGIS' y axis points up);
    /// only enabled points, the id as one comma-free field.
    public static func arcgisCSV(_ gcps: [GCP]) -> String {
        gcps.filter(\.enabled).map { "\(field($0.id)),\($0.pixel.x),\(-$0.pixel.y),\($0.ground.x),\($0.ground.y)\n" }.joined()
    }

    /// ArcGIS TSV: `x y X Y` separated by tabs, no header, the row negated; only enabled points,
    /// without names.
    public static func arcgisTSV(_ gcps: [GCP]) -> String {
        gcps.filter(\.enabled).map { "\($0.pixel.x)\t\(-$0.pixel.y)\t\($0.ground.x)\t\($0.ground.y)\n" }.joined()
    }

    /// A name as one comma-free field (commas become `;`, quotes `'`, line ends spaces), as
    /// Tegula has always written it.
    static func field(_ s: String) -> String {
        s.replacingOccurrences(of: ",", with: ";").replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\"", with: "'")
    }

    /// An Allmaps Georeference Annotation (georef extension 1) for the `width` × `height` scan at
    /// `scanPath`, its target's source the scan's IIIF image service when `service` names one
    /// (`{id, type: serviceType, width, height}`, ImageService3 unless said, as Allmaps' viewer, Mirador and
    /// OpenSeadragon open it), else the file (`{id: file URL, type: Image, width, height}`): enabled points as GeoJSON features with `resourceCoords` (ground converted
    /// from `crs` to WGS 84 lon/lat) and their `notes` by id, the mask as an SVG selector (the whole image without one, as Allmaps' schema requires a selector), the
    /// transform as `body.transformation` (``AllmapsTransformation``). Pretty, key-sorted JSON
    /// with a final line end; a ``GeoreferenceError`` when `crs` has no conversion to WGS 84.
    public static func allmapsAnnotation(
        _ gcps: [GCP], crs: CRS, notes: [String: String] = [:], transform: TransformKind,
        mask: [PixelPoint]?, scanPath: String, service: String? = nil, serviceType: String = "ImageService3",
        width: Int, height: Int
    ) throws -> String {
        var xs = gcps.map(\.ground.x), ys = gcps.map(\.ground.y)
        if !crs.isSame(as: .wgs84) {
            do {
                let t = try CoordinateTransformation(from: crs.makeReference(), to: CRS.wgs84.makeReference())
                _ = t.transform(x: &xs, y: &ys)
            } catch {
                throw GeoreferenceError(.unknownCRS, "cannot convert \(crs.label) to WGS 84 for Allmaps: \(error)")
            }
        }
        var features: [[String: Any]] = []
        for (i, g) in gcps.enumerated() where g.enabled {
            var props: [String: Any] = ["resourceCoords": [g.pixel.x, g.pixel.y]]
            if let note = notes[g.id], !note.isEmpty { props["note"] = note }
            features.append([
                "type": "Feature", "id": g.id, "properties": props,
                "geometry": ["type": "Point", "coordinates": [xs[i], ys[i]]],
            ])
        }
        var target: [String: Any] = [
            "type": "SpecificResource",
            "source": [
                "id": service ?? URL(fileURLWithPath: scanPath).absoluteString, "type": service == nil ? "Image" : serviceType,
                "width": width, "height": height,
            ],
        ]
        // Allmaps' schema requires the selector (TargetSchema); without a mask it is the whole
        // image, as Allmaps writes it, which the reader takes back as no mask.
        let outline = mask ?? wholeImage(width: width, height: height)
        let points = outline.map { "\(svgNumber($0.x)),\(svgNumber($0.y))" }.joined(separator: " ")
        target["selector"] = [
            "type": "SvgSelector",
            "value": "<svg width=\"\(width)\" height=\"\(height)\"><polygon points=\"\(points)\" /></svg>",
        ]
        let annotation: [String: Any] = [
            "@context": ["http://iiif.io/api/extension/georef/1/context.json", "http://iiif.io/api/presentation/3/context.json"],
            "type": "Annotation", "motivation": "georeferencing", "target": target,
            "body": ["type": "FeatureCollection", "transformation": AllmapsTransformation.json(transform), "features": features],
        ]
        let data = try JSONSerialization.data(withJSONObject: annotation, options: JSONStyle.readable.writingOptions)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// The outline of a whole `width` × `height` image, clockwise from the top-left corner: the
    /// selector Allmaps writes for a map without a mask.
    public static func wholeImage(width: Int, height: Int) -> [PixelPoint] {
        [
            PixelPoint(x: 0, y: 0), PixelPoint(x: Double(width), y: 0),
            PixelPoint(x: Double(width), y: Double(height)), PixelPoint(x: 0, y: Double(height)),
        ]
    }

    /// A coordinate as Allmaps' selector pattern takes it (`-?\d+(\.\d+)?`): an integer without
    /// a fraction, else at most 6 decimals, never an exponent.
    static func svgNumber(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        var s = String(format: "%.6f", v)
        while s.hasSuffix("0") { s.removeLast() }
        if s.hasSuffix(".") { s.removeLast() }
        return s == "-0" ? "0" : s
    }
}
