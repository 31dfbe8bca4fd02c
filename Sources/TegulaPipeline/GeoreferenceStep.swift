import Foundation
import TegulaGDAL
import TegulaGeoreference
import TegulaSupport
import TegulaWarp

/// The georeference stage of one map: from the `georeference:` section to `georef.vrt` (plus
/// `mask.wkt`, and for GCPs `report.json` and `residuals.svg`) in the map's work folder, or to
/// an in-memory ``WarpSource`` for the plan.
struct GeoreferenceStep {
    let map: MapSpec
    let folder: String

    var vrtPath: String { folder + "/georef.vrt" }
    var maskPath: String { folder + "/mask.wkt" }
    var reportPath: String { folder + "/report.json" }
    var picturePath: String { folder + "/residuals.svg" }

    /// SHA-256 over the scan's bytes, the section as written and the bytes of every file it names.
    func hash() -> String {
        var h = ContentHash()
        h.update("georeference/1")
        h.update(file: map.input)
        if let g = map.georeference {
            h.update(PipelineHashing.json(g))
            if case .file(let p) = g.gcps { h.update(file: p) }
            if case .file(let p) = g.mask { h.update(file: p) }
        }
        return h.finalize()
    }

    /// The mask polygon the section gives, if any.
    func mask() throws -> [PixelPoint]? {
        switch map.georeference?.mask {
        case .file(let p): return try MaskReader.read(path: p)
        case .inline(let pts): return pts
        case nil: return nil
        }
    }

    /// A one-line description for the plan and the log.
    func summary() -> String {
        guard let g = map.georeference else { return "none (the input is georeferenced)" }
        var s: String
        if let b = g.bounds {
            s = "bounds [\(b.map { "\($0)" }.joined(separator: ", "))] in \(g.srs ?? "EPSG:4326")"
        } else {
            let n: String
            switch g.gcps {
            case .file(let p): n = "GCPs from \((p as NSString).lastPathComponent)"
            case .inline(let l): n = "\(l.count) inline GCPs"
            case nil: n = "no GCPs"
            }
            s = "\(n), transform \(g.transform?.rawValue ?? "auto"), fit in \(g.fitSRS ?? "EPSG:3857")"
        }
        if let m = g.mask {
            switch m {
            case .file(let p): s += ", mask \((p as NSString).lastPathComponent)"
            case .inline(let pts): s += ", mask of \(pts.count) vertices"
            }
        }
        return s
    }

    /// Write the stage's outputs; returns the files written.
    func run() throws -> [String] {
        guard let g = map.georeference else {
            try requireOwnGeoreference()
            return []
        }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var outputs: [String] = []
        if let m = try mask() {
            try (MaskReader.wkt(m) + "\n").write(toFile: maskPath, atomically: true, encoding: .utf8)
            outputs.append(maskPath)
        } else {
            try? FileManager.default.removeItem(atPath: maskPath)
        }
        if let b = g.bounds {
            try writeBoundsVRT(bounds: b, srs: g.srs ?? "EPSG:4326")
            outputs.append(vrtPath)
            for stale in [reportPath, picturePath] { try? FileManager.default.removeItem(atPath: stale) }
        } else {
            outputs += try GCPGeoreferencing.write(map: map, step: self)
        }
        return outputs
    }

    /// The scan as a ``WarpSource`` without writing anything (for the plan).
    func sourceInMemory() throws -> WarpSource {
        guard let g = map.georeference else {
            try requireOwnGeoreference()
            return try WarpInput(path: map.input).resolve()
        }
        if let b = g.bounds {
            let ds = try Dataset(path: map.input)
            let srs = try SpatialReference(g.srs ?? "EPSG:4326")
            let mapping = try GeoTransformMapping(width: ds.width, height: ds.height,
                                                  geoTransform: geoTransform(bounds: b, width: ds.width, height: ds.height),
                                                  srs: srs.wkt, mask: try mask()?.map { (x: $0.x, y: $0.y) })
            return try WarpSource(path: map.input, mapping: mapping)
        }
        return try GCPGeoreferencing.sourceInMemory(map: map, step: self)
    }

    /// The recorded output as a ``WarpSource``: `georef.vrt` with `mask.wkt`, or the input itself.
    func recordedSource() throws -> WarpSource {
        guard map.georeference != nil else { return try WarpInput(path: map.input).resolve() }
        let mask = FileManager.default.fileExists(atPath: maskPath) ? maskPath : nil
        return try WarpInput(path: vrtPath, mask: mask).resolve()
    }

    /// A map without a `georeference:` section needs an input that carries its own.
    func requireOwnGeoreference() throws {
        let ds = try Dataset(path: map.input)
        if (ds.geoTransform != nil && ds.spatialReference != nil) || !ds.gcps.isEmpty { return }
        throw StageError("\(map.input) has no georeference of its own (no geotransform with a CRS, no GCPs); "
                         + "add a georeference section with gcps or bounds")
    }

    func geoTransform(bounds b: [Double], width: Int, height: Int) -> GeoTransform {
        GeoTransform([b[0], (b[2] - b[0]) / Double(width), 0, b[3], 0, -(b[3] - b[1]) / Double(height)])
    }

    /// `gdal_translate -of VRT -a_srs SRS -a_ullr W N E S`, written beside and renamed.
    func writeBoundsVRT(bounds: [Double], srs: String) throws {
        let ds = try Dataset(path: map.input)
        let gt = geoTransform(bounds: bounds, width: ds.width, height: ds.height)
        let reference = try SpatialReference(srs)
        let file: AtomicFile
        do { file = try AtomicFile(replacing: vrtPath) } catch { throw StageError("\(vrtPath): \(error)") }
        try ds.copy(to: file.temporaryPath, driver: "VRT")
        do {
            let vrt = try Dataset(updating: file.temporaryPath)
            try vrt.setGeoTransform(gt)
            try vrt.setSpatialReference(reference)
        }
        do { try file.commit() } catch {
            throw StageError("\(vrtPath): cannot move the VRT into place: \(error)")
        }
    }
}
