import Foundation
import TegulaGDAL
import TegulaGeometry
import TegulaGeoreference
import TegulaServer
import TegulaSupport

/// The session API: `GET /api/session`, `POST /api/fit`, `PUT /api/session`,
/// `GET /api/predict`, `GET /api/convert`; refusals are 422 `{"error", "code", "field"}`.
extension EditorService {
    func api(_ method: String, _ parts: [String], _ query: [String: String], _ body: [UInt8]) -> ServerResponse {
        switch (method, parts) {
        case ("GET", ["session"]):
            return Self.json(200, current.json())
        case ("POST", ["fit"]):
            return fitting(body, save: false)
        case ("PUT", ["session"]):
            return fitting(body, save: true)
        case ("GET", ["predict"]):
            return predict(query)
        case ("GET", ["convert"]):
            return convert(query)
        case (_, ["session"]):
            return Self.error(405, "\(method) is not allowed on /api/session: GET reads it, PUT saves it", allow: "GET, PUT")
        case (_, ["fit"]):
            return Self.error(405, "\(method) is not allowed on /api/fit: POST a session", allow: "POST")
        case (_, ["convert"]):
            return Self.error(405, "\(method) is not allowed on /api/convert", allow: "GET")
        case (_, ["predict"]):
            return Self.error(405, "\(method) is not allowed on /api/predict", allow: "GET")
        default:
            return Self.error(404, "no such API route: /api/\(parts.joined(separator: "/")); routes: GET /api/session, POST /api/fit, PUT /api/session, GET /api/predict")
        }
    }

    /// Check, autosave, fit; with `save`, also write the output.
    func fitting(_ body: [UInt8], save: Bool) -> ServerResponse {
        do {
            var s = try EditorSession.decode(Data(body))
            guard s.output.isEmpty || s.output == output else {
                throw EditorError(.badSession, at: "output", "is '\(s.output)', but this editor saves to '\(output)' (set by -o when it started)")
            }
            s.output = output
            _ = try SessionCheck(s, width: pyramid.width, height: pyramid.height)
            try autosave(s)
            let fit = try SessionFit(s, scanPath: scanPath, width: pyramid.width, height: pyramid.height)
            fits.withLock { list in
                list.removeAll { $0.version == fit.result.version }
                list.append((fit.result.version, fit))
                if list.count > 32 { list.removeFirst(list.count - 32) }
            }
            if save {
                try SessionFormat(output: output).write(fit, session: s, scanPath: scanPath, width: pyramid.width, height: pyramid.height, to: output)
                log("tegula: saved \(s.gcps.count) points (\(fit.result.transform)) to \(output)")
            }
            return Self.json(200, fit.result.json())
        } catch let e as EditorError {
            return Self.refusal(e)
        } catch {
            return Self.error(422, "\(error)")
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
    func predict(_ q: [String: String]) -> ServerResponse {
        guard let v = q["v"], let fit = fits.withLock({ $0.last { $0.version == v }?.fit }) else {
            return Self.error(404, "no fit with version '\(q["v"] ?? "")': POST /api/fit first")
        }
        let g = fit.georeference
        if let x = q["x"].flatMap(Double.init), let y = q["y"].flatMap(Double.init) {
            guard let p = try? g.pixelsToGround([PixelPoint(x: x, y: y)]).first, p.x.isFinite, p.y.isFinite else {
                return Self.error(422, "pixel (\(x), \(y)) has no ground position under this fit")
            }
            return Self.json(200, Data("{\"ground\":[\(p.x),\(p.y)]}".utf8))
        }
        if let lon = q["lon"].flatMap(Double.init), let lat = q["lat"].flatMap(Double.init) {
            guard let r = try? g.groundToPixels([GroundPoint(x: lon, y: lat)]).first, let p = r else {
                return Self.error(422, "ground (\(lon), \(lat)) has no pixel under this fit")
            }
            return Self.json(200, Data("{\"pixel\":[\(p.x),\(p.y)]}".utf8))
        }
        return Self.error(400, "give x and y (pixel → ground) or lon and lat (ground → pixel) as numbers")
    }

    /// `?crs=EPSG:28992&x=&y=` → `{"ground": [lon, lat]}`: a coordinate typed in a projected
    /// CRS, converted for the session (whose ground is WGS 84 longitude/latitude).
    func convert(_ q: [String: String]) -> ServerResponse {
        guard let def = q["crs"], var x = q["x"].flatMap(Double.init), var y = q["y"].flatMap(Double.init) else {
            return Self.error(400, "give crs (e.g. EPSG:28992), x and y")
        }
        do {
            let crs: CRS
            do { crs = try CRS(def) } catch { throw EditorError(.badCRS, at: "crs", "unknown CRS '\(def.prefix(80))': expected e.g. EPSG:28992") }
            var xs = [x], ys = [y]
            try EditorSession.toLonLat(from: crs, x: &xs, y: &ys, at: "ground")
            (x, y) = (xs[0], ys[0])
            guard abs(y) <= 90, abs(x) <= 180 else { throw EditorError(.invalidGround, at: "ground", "(\(x), \(y)) is not on the Earth") }
            return Self.json(200, Data("{\"ground\":[\(x),\(y)]}".utf8))
        } catch let e as EditorError {
            return Self.refusal(e)
        } catch {
            return Self.error(422, "\(error)")
        }
    }

}
