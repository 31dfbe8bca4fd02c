import Foundation
import TegulaGDAL
import TegulaGeoreference
import TegulaSupport

/// The formats Save writes, named by the output's extension: QGIS `.points`, MapWarper-style
/// `.csv`, an Allmaps Georeference Annotation `.json`, a GDAL `.vrt` with GCPs. Every one keeps
/// the transform and the mask: `.json` and `.vrt` inside, `.points` and `.csv` in a ``StoredFit``
/// sidecar `FILE.fit` that Tegula's GCP reader reads back.
public enum SessionFormat: String, Sendable, CaseIterable {
    case points, csv, allmaps = "json", vrt

    /// The format an output path names; a ``EditorError`` listing the choices otherwise.
    public init(output: String) throws {
        let ext = (output as NSString).pathExtension.lowercased()
        guard let f = SessionFormat(rawValue: ext) else {
            throw EditorError(.writeFailed, at: output, "the output must end in .points, .csv, .json (Allmaps) or .vrt")
        }
        self = f
    }

    /// Write `fit` to `output` for the scan at `scanPath`, all at once: every file goes to a
    /// temporary name beside its destination and is renamed into place only when all were
    /// written, so a failure replaces nothing.
    public func write(_ fit: SessionFit, session: EditorSession, scanPath: String, width: Int, height: Int, to output: String) throws {
        let g = fit.georeference
        if self == .vrt {
            do {
                try GeoreferenceWriter.write(imagePath: scanPath, georeference: g, output: output, report: nil, picture: nil)
            } catch {
                throw EditorError(.writeFailed, at: output, "\(error)")
            }
            return
        }
        let stored = StoredFit(transform: g.kind, fitCRS: nil, mask: fit.check.mask)
        var files: [(String, String)] = []
        switch self {
        case .points:
            files.append((output, try Self.points(fit, session: session)))
            files.append((StoredFit.sidecarPath(forGCPFile: output), stored.sidecarText))
        case .csv:
            files.append((output, Self.csv(fit, session: session)))
            files.append((StoredFit.sidecarPath(forGCPFile: output), stored.sidecarText))
        case .allmaps:
            files.append((output, try Self.annotation(fit, session: session, scanPath: scanPath, width: width, height: height)))
        case .vrt:
            break
        }
        var staged: [AtomicFile] = []
        do {
            for (path, text) in files {
                let f = try AtomicFile(replacing: path)
                staged.append(f)
                try f.write(Array(text.utf8))
            }
            for f in staged { try f.commit() }
        } catch {
            for f in staged { f.discard() }
            throw EditorError(.writeFailed, at: output, "\(error)")
        }
    }

    /// QGIS `.points`: `#CRS:` with the WKT, then `mapX,mapY,sourceX,sourceY,enable,dX,dY,residual`
    /// (sourceY negated, as QGIS stores it) and a `name` column QGIS ignores and Tegula reads as the id.
    static func points(_ fit: SessionFit, session: EditorSession) throws -> String {
        var text = "#CRS: \(fit.check.set.crs.wkt)\nmapX,mapY,sourceX,sourceY,enable,dX,dY,residual,name\n"
        let figures = Dictionary(fit.result.gcps.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for g in session.gcps {
            let f = figures[g.id]
            text += "\(g.ground[0]),\(g.ground[1]),\(g.pixel[0]),\(-g.pixel[1]),\(g.enabled ? 1 : 0),"
            text += "\(f?.dxPx ?? 0),\(-(f?.dyPx ?? 0)),\(f?.residualPx ?? 0),\(field(g.id))\n"
        }
        return text
    }

    /// CSV `x,y,lon,lat,name` (`X,Y` for a projected CRS); only enabled points, as the format
    /// has no column to switch one off.
    static func csv(_ fit: SessionFit, session: EditorSession) -> String {
        var text = fit.check.set.crs.isGeographic ? "x,y,lon,lat,name\n" : "x,y,X,Y,name\n"
        for g in session.gcps where g.enabled {
            text += "\(g.pixel[0]),\(g.pixel[1]),\(g.ground[0]),\(g.ground[1]),\(field(g.id))\n"
        }
        return text
    }

    /// A name as one comma-free field.
    static func field(_ s: String) -> String {
        s.replacingOccurrences(of: ",", with: ";").replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\"", with: "'")
    }

    /// An Allmaps Georeference Annotation (georef extension 1): enabled points as GeoJSON
    /// features with `resourceCoords` (ground converted to WGS 84 lon/lat), the mask as an SVG
    /// selector, the transform as `body.transformation`.
    static func annotation(_ fit: SessionFit, session: EditorSession, scanPath: String, width: Int, height: Int) throws -> String {
        let set = fit.check.set
        var xs = session.gcps.map { $0.ground[0] }, ys = session.gcps.map { $0.ground[1] }
        if !set.crs.isSame(as: .wgs84) {
            do {
                let t = try CoordinateTransformation(from: set.crs.makeReference(), to: CRS.wgs84.makeReference())
                _ = t.transform(x: &xs, y: &ys)
            } catch {
                throw EditorError(.writeFailed, at: session.output, "cannot convert \(set.crs.label) to WGS 84 for Allmaps: \(error)")
            }
        }
        var features: [[String: Any]] = []
        for (i, g) in session.gcps.enumerated() where g.enabled {
            var props: [String: Any] = ["resourceCoords": g.pixel]
            if !g.note.isEmpty { props["note"] = g.note }
            features.append(["type": "Feature", "id": g.id, "properties": props,
                             "geometry": ["type": "Point", "coordinates": [xs[i], ys[i]]]])
        }
        var target: [String: Any] = [
            "type": "SpecificResource",
            "source": ["id": URL(fileURLWithPath: scanPath).absoluteString, "type": "Image", "width": width, "height": height],
        ]
        if let mask = fit.check.mask {
            let points = mask.map { "\($0.x),\($0.y)" }.joined(separator: " ")
            target["selector"] = ["type": "SvgSelector",
                                  "value": "<svg width=\"\(width)\" height=\"\(height)\"><polygon points=\"\(points)\" /></svg>"]
        }
        let annotation: [String: Any] = [
            "@context": ["http://iiif.io/api/extension/georef/1/context.json", "http://iiif.io/api/presentation/3/context.json"],
            "type": "Annotation", "motivation": "georeferencing", "target": target,
            "body": ["type": "FeatureCollection", "transformation": transformation(fit.georeference.kind), "features": features],
        ]
        let data = try JSONSerialization.data(withJSONObject: annotation, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// Allmaps' name for a transform.
    static func transformation(_ k: TransformKind) -> [String: Any] {
        switch k {
        case .helmert: return ["type": "helmert"]
        case .polynomial1: return ["type": "polynomial", "options": ["order": 1]]
        case .polynomial2: return ["type": "polynomial", "options": ["order": 2]]
        case .polynomial3: return ["type": "polynomial", "options": ["order": 3]]
        case .projective: return ["type": "projective"]
        case .tps: return ["type": "thinPlateSpline"]
        }
    }
}
