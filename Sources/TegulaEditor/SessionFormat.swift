import Foundation
import TegulaGDAL
import TegulaGeoreference
import TegulaSupport

/// The formats Save writes, named by the output's extension: QGIS `.points`, MapWarper-style
/// `.csv`, an Allmaps Georeference Annotation `.json` (TegulaGeoreference's ``GCPWriter``, the
/// pair of its GCP reader), a GDAL `.vrt` with GCPs (``GeoreferenceWriter``). Every one keeps
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

    /// Write `fit` to `output` for the scan at `scanPath`, whose IIIF service is `service` of
    /// Allmaps type `serviceType` (the
    /// target an Allmaps annotation names when it is an http(s) URI), all at once: every file goes to a
    /// temporary name beside its destination and is renamed into place only when all were
    /// written, so a failure replaces nothing.
    public func write(_ fit: SessionFit, session: EditorSession, scanPath: String, service: String? = nil,
                      serviceType: String = "ImageService3", width: Int, height: Int, to output: String) throws {
        let g = fit.georeference
        if self == .vrt {
            if Location(scanPath).isURL {
                throw EditorError(.writeFailed, at: output, "a VRT cannot reference an IIIF image; save as .json (a Georeference Annotation naming it), .points or .csv")
            }
            do {
                try GeoreferenceWriter.write(imagePath: scanPath, georeference: g, output: output, report: nil, picture: nil)
            } catch {
                throw EditorError(.writeFailed, at: output, "\(error)")
            }
            return
        }
        let stored = StoredFit(transform: g.kind, fitCRS: nil, mask: fit.check.mask)
        let gcps = session.gcps.map(\.gcp)
        let crs = fit.check.set.crs
        var files: [(String, String)] = []
        switch self {
        case .points:
            let residuals = Dictionary(fit.result.gcps.map { ($0.id, GCPWriter.Residual(dx: $0.dxPx, dy: $0.dyPx, pixels: $0.residualPx)) },
                                       uniquingKeysWith: { a, _ in a })
            files.append((output, GCPWriter.points(gcps, crs: crs, residuals: residuals)))
            files.append((StoredFit.sidecarPath(forGCPFile: output), stored.sidecarText))
        case .csv:
            files.append((output, GCPWriter.csv(gcps, crs: crs)))
            files.append((StoredFit.sidecarPath(forGCPFile: output), stored.sidecarText))
        case .allmaps:
            let notes = Dictionary(session.gcps.map { ($0.id, $0.note) }, uniquingKeysWith: { a, _ in a })
            do {
                files.append((output, try GCPWriter.allmapsAnnotation(gcps, crs: crs, notes: notes, transform: g.kind, mask: fit.check.mask,
                                                                       scanPath: scanPath, service: service.flatMap(Self.absolute), serviceType: serviceType,
                                                                       width: width, height: height)))
            } catch let e as GeoreferenceError {
                throw EditorError(.writeFailed, at: session.output, e.message)
            }
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

    /// `uri` when it is absolute http(s) (a request without a `Host` header gives a bare path,
    /// which no viewer could open: the file is named instead).
    static func absolute(_ uri: String) -> String? {
        Location(uri).isURL ? uri : nil
    }
}
