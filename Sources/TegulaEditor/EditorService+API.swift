import Foundation
import TegulaGDAL
import TegulaGeometry
import TegulaGeoreference
import TegulaHTTP
import TegulaSupport

/// The session API: `GET /api/session`, `POST /api/fit`, `PUT /api/session`,
/// `GET /api/predict`, `GET /api/convert` (routes in ``EditorRoute``); refused sessions are 422
/// `{"error", "code", "field"}`.
extension EditorService {
    /// A point answered by `/api/predict` or `/api/convert`: `{"ground": [x, y]}` or `{"pixel": [x, y]}`.
    struct PointAnswer: Encodable {
        var ground: [Double]?
        var pixel: [Double]?
    }

    /// Check, autosave, fit; with `save` (the scan's IIIF service URI as the client reached it),
    /// also write the output, naming that service as the scan.
    func fitting(_ body: [UInt8], save service: String?) throws(EditorError) -> ServerResponse {
        do {
            var s = try EditorSession.decode(Data(body))
            guard s.output.isEmpty || s.output == output else {
                throw EditorError(.badSession, at: "output", "is '\(s.output)', but this editor saves to '\(output)' (set by -o when it started)")
            }
            s.output = output
            _ = try SessionCheck(s, width: pane.width, height: pane.height)
            try autosave(s)
            let fit = try SessionFit(s, scanPath: scanPath, width: pane.width, height: pane.height)
            fits.withLock { list in
                list.removeAll { $0.version == fit.result.version }
                list.append((fit.result.version, fit))
                if list.count > 32 { list.removeFirst(list.count - 32) }
            }
            if let service {
                try SessionFormat(output: output).write(
                    fit, session: s, scanPath: scanPath, service: service,
                    serviceType: scanService?.type ?? "ImageService3", width: pane.width, height: pane.height,
                    to: output)
                log("tegula: saved \(s.gcps.count) points (\(fit.result.transform)) to \(output)")
            }
            return .json(fit.result)
        } catch let e as EditorError {
            throw e
        } catch {
            throw EditorError(.fitFailed, "\(error)")
        }
    }

    /// Keep the session in memory and in the sidecar (atomically).
    func autosave(_ s: EditorSession) throws {
        session.withLock { $0 = s }
        do { try AtomicFile.write(Array(s.json()), to: Self.sidecarPath(output)) } catch {
            throw EditorError(.writeFailed, at: Self.sidecarPath(output), "cannot autosave the session: \(error)")
        }
    }

    /// `?v=VERSION&x=&y=` → `{"ground": [x, y]}` in the session's CRS; `?v=&lon=&lat=` (ground
    /// x, y) → `{"pixel": [x, y]}` by the exact inverse.
    func predict(_ q: RequestTarget) throws -> ServerResponse {
        let v = q.query["v"] ?? ""
        guard let fit = fits.withLock({ $0.last { $0.version == v }?.fit }) else {
            throw ServerError(.noRoute, "no fit with version '\(v)': POST /api/fit first")
        }
        let g = fit.georeference
        if let x = q.double("x"), let y = q.double("y") {
            guard let p = try? g.pixelsToGround([PixelPoint(x: x, y: y)]).first, p.x.isFinite, p.y.isFinite else {
                throw EditorError(.fitFailed, "pixel (\(x), \(y)) has no ground position under this fit")
            }
            return .json(PointAnswer(ground: [p.x, p.y]))
        }
        if let lon = q.double("lon"), let lat = q.double("lat") {
            guard let r = try? g.groundToPixels([GroundPoint(x: lon, y: lat)]).first, let p = r else {
                throw EditorError(.fitFailed, "ground (\(lon), \(lat)) has no pixel under this fit")
            }
            return .json(PointAnswer(pixel: [p.x, p.y]))
        }
        throw ServerError(.malformedTarget, "give x and y (pixel → ground) or lon and lat (ground → pixel) as numbers")
    }

    /// `?crs=EPSG:28992&x=&y=` → `{"ground": [lon, lat]}`: a coordinate typed in a projected
    /// CRS, converted for the session (whose ground is WGS 84 longitude/latitude).
    func convert(_ q: RequestTarget) throws -> ServerResponse {
        guard let def = q.query["crs"], var x = q.double("x"), var y = q.double("y") else {
            throw ServerError(.malformedTarget, "give crs (e.g. EPSG:28992), x and y")
        }
        do {
            let crs: CRS
            do { crs = try CRS(def) } catch { throw EditorError(.badCRS, at: "crs", "unknown CRS '\(def.prefix(80))': expected e.g. EPSG:28992") }
            var xs = [x], ys = [y]
            try EditorSession.toLonLat(from: crs, x: &xs, y: &ys, at: "ground")
            (x, y) = (xs[0], ys[0])
            guard abs(y) <= 90, abs(x) <= 180 else { throw EditorError(.invalidGround, at: "ground", "(\(x), \(y)) is not on the Earth") }
            return .json(PointAnswer(ground: [x, y]))
        } catch let e as EditorError {
            throw e
        } catch {
            throw EditorError(.fitFailed, "\(error)")
        }
    }

}
