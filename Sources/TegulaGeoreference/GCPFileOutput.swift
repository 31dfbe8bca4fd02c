import Foundation
import TegulaGDAL
import TegulaGeometry

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
            throw GeoreferenceError(.writeFailed, at: path,
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
        let gcps = g.gcps.gcps, crs = g.gcps.crs
        let text: String
        switch format {
        case .qgis:
            let residuals = Dictionary(g.report.gcps.map { r in
                (r.id, GCPWriter.Residual(dx: r.residualPixelVector.first, dy: r.residualPixelVector.last, pixels: r.residualPixels))
            }, uniquingKeysWith: { a, _ in a })
            text = GCPWriter.points(gcps, crs: crs, residuals: residuals)
        case .csv: text = GCPWriter.csv(gcps, crs: crs)
        case .gdal: text = GCPWriter.gdal(gcps)
        case .arcgisCSV: text = GCPWriter.arcgisCSV(gcps)
        case .arcgisTSV: text = GCPWriter.arcgisTSV(gcps)
        case .allmaps:
            text = try GCPWriter.allmapsAnnotation(gcps, crs: crs, transform: g.kind, mask: g.gcps.mask, scanPath: scanPath,
                                                   service: service, serviceType: serviceType, width: g.imageWidth, height: g.imageHeight)
        }
        var out = [(path: path, data: Data(text.utf8))]
        if !format.holdsTheFit {
            out.append((StoredFit.sidecarPath(forGCPFile: path), Data(g.stored.sidecarText.utf8)))
        }
        return out
    }
}
