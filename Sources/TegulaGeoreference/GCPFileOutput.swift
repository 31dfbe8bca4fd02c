import Foundation
import TegulaGDAL
import TegulaGeometry
import TegulaSupport

/// The GCP file `tegula georef --write-gcps` writes beside its output: where, and in which
/// ``GCPFormat``; written by ``GeoreferenceWriter`` with the rest, all or nothing.
public struct GCPFileOutput: Sendable, Hashable {
    /// Where the file goes.
    public var path: String
    /// The form it is written in.
    public var format: GCPFormat

    /// `format`, else the form `path`'s extension names (``GCPFormat/init(extensionOf:)``); a
    /// ``GeoreferenceError`` naming the choices when neither says.
    public init(path: String, format: GCPFormat? = nil) throws {
        guard let f = format ?? GCPFormat(extensionOf: path) else {
            throw GeoreferenceError(
                .writeFailed, at: path,
                "which GCP format? name it (\(GCPFormat.accepted)), or end the file in .points, .csv, .txt (GDAL text) or .json (Allmaps)")
        }
        self.path = path
        self.format = f
    }

    /// The file's bytes, and for a form without room for the fit the ``StoredFit`` sidecar that
    /// keeps it (`FILE.fit`): every GCP of `g` in the GCPs' CRS (the forms without a switch
    /// only the enabled ones); an Allmaps annotation names `service` when there is one, else
    /// the file at `scanPath`.
    func files(_ g: Georeference, scanPath: String, service: String?, serviceType: String) throws -> [(path: String, data: Data)] {
        let residuals = Dictionary(
            g.report.gcps.map { r in
                (r.id, GCPWriter.Residual(dx: r.residualPixelVector.first, dy: r.residualPixelVector.last, pixels: r.residualPixels))
            }, uniquingKeysWith: { a, _ in a })
        return try files(
            g.gcps.gcps, crs: g.gcps.crs, transform: g.kind, stored: g.stored, residuals: residuals, mask: g.gcps.mask,
            scanPath: scanPath, service: service, serviceType: serviceType, width: g.imageWidth, height: g.imageHeight)
    }

    /// The file's bytes for `gcps` (ground in `crs`), and when the form has no room for the fit
    /// and `stored` is given, the sidecar `FILE.fit` that keeps it: QGIS `.points` carry
    /// `residuals` by GCP id, an Allmaps annotation `transform`, `mask`, `notes` by GCP id and
    /// the scan (`service` when there is one, else the file at `scanPath`, `width` × `height`).
    public func files(
        _ gcps: [GCP], crs: CRS, transform: TransformKind, stored: StoredFit?, residuals: [String: GCPWriter.Residual] = [:],
        notes: [String: String] = [:], mask: [PixelPoint]?, scanPath: String, service: String? = nil,
        serviceType: String = "ImageService3", width: Int, height: Int
    ) throws -> [(path: String, data: Data)] {
        let text: String
        switch format {
        case .qgis: text = GCPWriter.points(gcps, crs: crs, residuals: residuals)
        case .csv: text = GCPWriter.csv(gcps, crs: crs)
        case .gdal: text = GCPWriter.gdal(gcps)
        case .arcgisCSV: text = GCPWriter.arcgisCSV(gcps)
        case .arcgisTSV: text = GCPWriter.arcgisTSV(gcps)
        case .allmaps:
            text = try GCPWriter.allmapsAnnotation(
                gcps, crs: crs, notes: notes, transform: transform, mask: mask, scanPath: scanPath,
                service: service, serviceType: serviceType, width: width, height: height)
        }
        var out = [(path: path, data: Data(text.utf8))]
        if !format.holdsTheFit, let stored {
            out.append((StoredFit.sidecarPath(forGCPFile: path), Data(stored.sidecarText.utf8)))
        }
        return out
    }

    /// Writes `files` (``files(_:crs:transform:stored:residuals:notes:mask:scanPath:service:serviceType:width:height:)``)
    /// all at once: each to a temporary name beside it, renamed into place only when every one
    /// was written, so a failure replaces nothing.
    public static func write(_ files: [(path: String, data: Data)]) throws {
        var staged: [AtomicFile] = []
        do {
            for (path, data) in files {
                let f = try AtomicFile(replacing: path)
                staged.append(f)
                try f.write(Array(data))
            }
            for f in staged { try f.commit() }
        } catch {
            for f in staged { f.discard() }
            throw error
        }
    }
}
