import Foundation
import TegulaCrypto
import TegulaGDAL
import TegulaGeometry
import TegulaGeoreference
import TegulaScan
import TegulaSupport
import TegulaWarp

/// The georeference stage of one map: from the `georeference:` section to `georef.vrt` (plus
/// `mask.wkt`, and for GCPs `report.json`, with the match under `match` for GCPs from `match:`,
/// and `residuals.svg`) in the map's work folder, or to an in-memory ``WarpSource`` for the plan.
struct GeoreferenceStep: MapStage {
    let map: MapSpec
    let folder: String
    /// Digests of the files it reads, remembered in the work folder.
    let digests: FileDigests
    /// How the scan is opened (the pipeline's resolver: an IIIF image opened once for the run).
    let scans: any ScanOpener
    /// The map's part of the joint fit: its tie pins join its GCPs.
    var tied: SheetFit? = nil

    var stage: Stage { .georeference }

    var vrtPath: String { folder + "/georef.vrt" }
    /// For a remote scan (an IIIF image), which no VRT can reference: the fit as a Georeference
    /// Annotation naming the image.
    var annotationPath: String { folder + "/georef.json" }
    var isRemote: Bool { Location(map.input).isURL }
    var maskPath: String { folder + "/mask.wkt" }
    var reportPath: String { Self.reportPath(in: folder) }
    /// The fit's report in a map's work folder (a map whose `match:` did not match: the match alone).
    static func reportPath(in folder: String) -> String { folder + "/report.json" }
    var picturePath: String { folder + "/residuals.svg" }

    /// SHA-256 over the scan's bytes, the section as written and the bytes of every file it names
    /// (a match reference's: its file, every file of its folder, or its URL).
    func hash() -> String {
        var h = ContentHash()
        h.update("georeference/1")
        h.update(digests.digest(of: map.input, opening: scans))
        if let g = map.georeference {
            h.update(PipelineHashing.json(g))
            if case .file(let p) = g.gcps { h.update(digests.digest(of: p, opening: scans)) }
            if case .file(let p) = g.mask { h.update(digests.digest(of: p, opening: scans)) }
            if case .match(let r) = g.gcps { h.update(ReferenceMatch.referenceDigest(r, digests: digests, scans: scans)) }
        }
        if let tied { h.update(PipelineHashing.json(tied.pins)); h.update(tied.kind.name) }
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
            s = "bounds [\(b.map { "\($0)" }.joined(separator: ", "))] in \(g.srs ?? .wgs84)"
        } else {
            let n: String
            switch g.gcps {
            case .file(let p): n = "GCPs from \((p as NSString).lastPathComponent)"
            case .inline(let l): n = "\(l.count) inline GCPs"
            case .match(let r): n = "GCPs matched against \(Location(r).isURL ? r : (r as NSString).lastPathComponent)"
            case .tiesOnly: n = "no GCPs (placed by its ties)"
            case nil: n = "no GCPs"
            }
            s =
                "\(n)\(tied.map { " + \($0.pins.count) tie pins" } ?? ""), transform \(tied?.kind.name ?? g.transform?.name ?? "auto"), fit in \(g.fitCRS ?? .webMercator)"
        }
        if let m = g.mask {
            switch m {
            case .file(let p): s += ", mask \((p as NSString).lastPathComponent)"
            case .inline(let pts): s += ", mask of \(pts.count) vertices"
            }
        }
        return s
    }

    /// Without a record the stage will run whatever its hash, so the hash (which digests the
    /// scan's bytes) is left for ``run(_:in:)`` to compute: a plan of many new maps reads no scan.
    func plan(after previous: PlannedStage?, in work: MapWork) throws -> PlannedStage {
        let hash = work.manifest[.georeference] == nil ? "" : hash()
        return PlannedStage(
            stage: .georeference, key: Stage.georeference.rawValue, hash: hash,
            current: !hash.isEmpty && work.manifest.isCurrent(.georeference, hash: hash),
            detail: summary() + (map.georeference == nil ? "" : isRemote ? " → georef.json" : " → georef.vrt"), skippedDetail: summary())
    }

    func run(_ plan: PlannedStage, in work: MapWork) throws -> String {
        let (outputs, fitted) = try write()
        try work.record(key: plan.key, hash: plan.hash.isEmpty ? hash() : plan.hash, outputs: outputs)
        let written = outputs.isEmpty ? "nothing to write" : outputs.map { ($0 as NSString).lastPathComponent }.joined(separator: ", ")
        let fit = fitted.map { "; fitted " + GCPGeoreferencing.describe($0.report, tied: tied != nil) } ?? ""
        var matched = ""
        if case .match? = map.georeference?.gcps, let record = ReferenceMatch.recorded(in: folder) { matched = "; " + record.summary }
        return "\(summary())\(matched)\(fit) → \(written)"
    }

    /// The match of the scan against `reference` (``ReferenceMatch``): recorded in the map's
    /// folder, made when it was not.
    func match(_ reference: String) throws -> ReferenceMatch {
        try ReferenceMatch.of(map, reference: reference, folder: folder, digests: digests, scans: scans)
    }

    /// Write the stage's outputs; returns the files written and the GCP fit, when there is one.
    func write() throws -> ([String], Georeference?) {
        guard let g = map.georeference else {
            try requireOwnGeoreference()
            return ([], nil)
        }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var outputs: [String] = []
        var fitted: Georeference?
        if let m = try mask() {
            AtomicFile.removeAbandoned(of: maskPath)
            try AtomicFile.write(Array((MaskReader.wkt(m) + "\n").utf8), to: maskPath)
            outputs.append(maskPath)
        } else {
            try? FileManager.default.removeItem(atPath: maskPath)
        }
        if let b = g.bounds {
            try writeBoundsVRT(bounds: b, crs: g.srs ?? .wgs84)
            outputs.append(vrtPath)
            for stale in [reportPath, picturePath] { try? FileManager.default.removeItem(atPath: stale) }
        } else if isRemote, let remote = try scans.open(map.input).remote {
            let georeference = try GCPGeoreferencing.fit(map: map, step: self)
            try GeoreferenceWriter.writeAnnotation(
                service: remote.sourceID, serviceType: remote.sourceType, georeference: georeference,
                output: annotationPath, report: reportPath, picture: picturePath
            ) { w, h in
                try OpenedScan(remote: remote).thumbnail(width: w, height: h)
            }
            outputs += [annotationPath, reportPath, picturePath]
            fitted = georeference
        } else {
            let georeference = try GCPGeoreferencing.fit(map: map, step: self)
            // A helmert or affine fit's VRT carries the fit's own points, so GDAL's order-1
            // reading reproduces it (a tied sheet's pins may lie on one line); the user's points
            // stay in report.json and the section's GCPs.
            try GeoreferenceWriter.write(
                imagePath: map.input, georeference: georeference, output: vrtPath,
                report: reportPath, picture: picturePath, pins: .fitWhereAffine)
            outputs += [vrtPath, reportPath, picturePath]
            fitted = georeference
        }
        if case .match = g.gcps {
            if let fitted, let record = ReferenceMatch.recorded(in: folder) {
                try AtomicFile.write(Array(try record.report(fitted.report)), to: reportPath)
            }
            outputs += [ReferenceMatch.recordPath(in: folder), ReferenceMatch.pointsPath(in: folder)]
        }
        return (outputs, fitted)
    }

    /// The scan as a ``WarpSource`` without writing anything; `readingPixels` false (a plan)
    /// reads only the scan's header and leaves out the fit's pins.
    func sourceInMemory(readingPixels: Bool = false) throws -> WarpSource {
        guard let g = map.georeference else {
            try requireOwnGeoreference()
            return try WarpInput(path: map.input).resolve(readingPixels: readingPixels, opening: scans)
        }
        if let b = g.bounds {
            let ds = try Dataset(path: map.input)
            let mapping = try GeoTransformMapping(
                width: ds.width, height: ds.height,
                geoTransform: geoTransform(bounds: b, width: ds.width, height: ds.height),
                crs: g.srs ?? .wgs84, mask: try mask()?.map { (x: $0.x, y: $0.y) })
            return try WarpSource(path: map.input, mapping: mapping, sharePixels: readingPixels)
        }
        return try GCPGeoreferencing.sourceInMemory(map: map, step: self, readingPixels: readingPixels)
    }

    /// The recorded output as a ``WarpSource``: `georef.vrt` with `mask.wkt`, or the input itself
    /// (`readingPixels` as for ``sourceInMemory(readingPixels:)``).
    /// A remote scan's fit is made again from the section (cheap, and the same fit: no VRT holds it).
    func recordedSource(readingPixels: Bool = false) throws -> WarpSource {
        guard map.georeference != nil else { return try WarpInput(path: map.input).resolve(readingPixels: readingPixels, opening: scans) }
        if isRemote { return try sourceInMemory(readingPixels: readingPixels) }
        let mask = FileManager.default.fileExists(atPath: maskPath) ? try MaskReader.read(path: maskPath) : nil
        return try WarpInput(path: vrtPath, mask: mask).resolve(readingPixels: readingPixels)
    }

    /// A map without a `georeference:` section needs an input that carries its own.
    func requireOwnGeoreference() throws {
        let ds = try Dataset(path: map.input)
        if Pipeline.carriesOwnGeoreference(ds) { return }
        throw PipelineError(
            .notGeoreferenced,
            "\(map.input) has no georeference of its own (no geotransform with a CRS, no GCPs); "
                + "add a georeference section with gcps or bounds")
    }

    func geoTransform(bounds b: [Double], width: Int, height: Int) -> GeoTransform {
        GeoTransform([b[0], (b[2] - b[0]) / Double(width), 0, b[3], 0, -(b[3] - b[1]) / Double(height)])
    }

    /// `gdal_translate -of VRT -a_srs SRS -a_ullr W N E S`, written beside and renamed.
    func writeBoundsVRT(bounds: [Double], crs: CRS) throws {
        let ds = try Dataset(path: map.input)
        let gt = geoTransform(bounds: bounds, width: ds.width, height: ds.height)
        let reference = crs.makeReference()
        AtomicFile.removeAbandoned(of: vrtPath)
        let file: AtomicFile
        do { file = try AtomicFile(replacing: vrtPath) } catch { throw PipelineError(.writeFailed, "\(vrtPath): \(error)") }
        try ds.copy(to: file.temporaryPath, driver: "VRT")
        do {
            let vrt = try Dataset(updating: file.temporaryPath)
            try vrt.setGeoTransform(gt)
            try vrt.setSpatialReference(reference)
        }
        do { try file.commit() } catch {
            throw PipelineError(.writeFailed, "\(vrtPath): cannot move the VRT into place: \(error)")
        }
    }
}
