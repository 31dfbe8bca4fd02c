import Foundation
import TegulaGDAL
import TegulaGeoreference
import TegulaSupport

/// What Save writes, named by the output's extension: a GCP file in a form Tegula writes
/// (``GCPFileOutput``, TegulaGeoreference's one home of the forms: QGIS `.points`, MapWarper-style
/// `.csv`, GDAL text `.txt`, an Allmaps Georeference Annotation `.json`), or a GDAL `.vrt` with
/// GCPs (``GeoreferenceWriter``). Every one keeps the transform and the mask: `.json` and `.vrt`
/// inside, the others in a ``StoredFit`` sidecar `FILE.fit` that Tegula's GCP reader reads back.
public enum SessionFormat: Sendable {
    /// A GCP file.
    case gcpFile(GCPFileOutput)
    /// A GDAL VRT of the scan with the GCPs.
    case vrt

    /// The format an output path names; a ``EditorError`` listing the choices otherwise.
    public init(output: String) throws {
        if (output as NSString).pathExtension.lowercased() == "vrt" {
            self = .vrt
            return
        }
        guard let file = try? GCPFileOutput(path: output) else {
            throw EditorError(.writeFailed, at: output, "the output must end in .points, .csv, .txt (GDAL text), .json (Allmaps) or .vrt")
        }
        self = .gcpFile(file)
    }

    /// Write `fit` to `output` for the scan at `scanPath`, whose IIIF service is `service` of
    /// Allmaps type `serviceType` (the target an Allmaps annotation names when it is an http(s)
    /// URI), all at once: every file goes to a temporary name beside its destination and is
    /// renamed into place only when all were written, so a failure replaces nothing. The points
    /// are the session's as the user left them (a duplicate the fit left out stays enabled).
    public func write(
        _ fit: SessionFit, session: EditorSession, scanPath: String, service: String? = nil,
        serviceType: String = "ImageService3", width: Int, height: Int, to output: String
    ) throws {
        let g = fit.georeference
        guard case .gcpFile(let file) = self else {
            if Location(scanPath).isURL {
                throw EditorError(
                    .writeFailed, at: output,
                    "a VRT cannot reference an IIIF image; save as .json (a Georeference Annotation naming it), .points or .csv")
            }
            do {
                try GeoreferenceWriter.write(imagePath: scanPath, georeference: g, output: output, report: nil, picture: nil)
            } catch {
                throw EditorError(.writeFailed, at: output, "\(error)")
            }
            return
        }
        let residuals = Dictionary(
            fit.result.gcps.map { ($0.id, GCPWriter.Residual(dx: $0.dxPx, dy: $0.dyPx, pixels: $0.residualPx)) },
            uniquingKeysWith: { a, _ in a })
        let notes = Dictionary(session.gcps.map { ($0.id, $0.note) }, uniquingKeysWith: { a, _ in a })
        let files: [(path: String, data: Data)]
        do {
            files = try file.files(
                session.gcps.map(\.gcp), crs: fit.check.set.crs, transform: g.kind,
                stored: StoredFit(transform: g.kind, fitCRS: nil, mask: fit.check.mask), residuals: residuals, notes: notes,
                mask: fit.check.mask, scanPath: scanPath, service: service.flatMap(Self.absolute), serviceType: serviceType,
                width: width, height: height)
        } catch let e as GeoreferenceError {
            throw EditorError(.writeFailed, at: session.output, e.message)
        }
        do { try GCPFileOutput.write(files) } catch {
            throw EditorError(.writeFailed, at: output, "\(error)")
        }
    }

    /// `uri` when it is absolute http(s) (a request without a `Host` header gives a bare path,
    /// which no viewer could open: the file is named instead).
    static func absolute(_ uri: String) -> String? {
        Location(uri).isURL ? uri : nil
    }
}
