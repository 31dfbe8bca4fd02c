import Foundation
import TegulaGeometry
import TegulaGeoreference
import TegulaOnDemand
import TegulaPyramid
import TegulaServer
import TegulaWarp

/// Tiles: the raw scan in pixel space, and the scan warped by one fit (by version) on demand.
extension EditorService {
    func scanTile(_ parts: [String]) -> ServerResponse {
        guard parts.count == 3, let z = Int(parts[0]), let x = Int(parts[1]), parts[2].hasSuffix(".jpg"),
              let y = Int(parts[2].dropLast(4)) else {
            return Self.error(400, "scan tiles are /scan/{z}/{x}/{y}.jpg")
        }
        do {
            guard let jpeg = try pyramid.tile(z: z, x: x, y: y) else { return Self.error(404, "tile \(z)/\(x)/\(y) is outside the scan") }
            return ServerResponse(status: 200, headers: [("Content-Type", "image/jpeg"), ("Cache-Control", "public, max-age=86400")], body: jpeg)
        } catch {
            return Self.error(500, "\(error)")
        }
    }

    /// `/overlay/{version}.json` (zooms and bounds) and `/overlay/{version}/{z}/{x}/{y}.png`: the
    /// scan warped by the fit of that version, rendered on demand by ``OnDemandSource``. The URL
    /// names the fit, so tiles are immutable.
    func overlay(_ parts: [String]) async -> ServerResponse {
        let version = parts.first.map { $0.hasSuffix(".json") ? String($0.dropLast(5)) : $0 } ?? ""
        let source: OnDemandSource
        do {
            guard let s = try overlaySource(version) else { return Self.error(404, "no fit with version '\(version)': POST /api/fit first") }
            source = s
        } catch {
            return Self.error(500, "the overlay of fit \(version) cannot be rendered: \(error)")
        }
        if parts.count == 1 {
            let m = source.metadata, b = m.bounds
            let json = "{\"minzoom\":\(m.minZoom),\"maxzoom\":\(m.maxZoom),\"bounds\":[\(b.west),\(b.south),\(b.east),\(b.north)],\"tiles\":\"/overlay/\(version)/{z}/{x}/{y}.\(m.format.fileExtension)\"}"
            return Self.json(200, Data(json.utf8))
        }
        guard parts.count == 4, let z = Int(parts[1]), let x = Int(parts[2]),
              let dot = parts[3].firstIndex(of: "."), let y = Int(parts[3][..<dot]), z >= 0, z < 31 else {
            return Self.error(400, "overlay tiles are /overlay/{version}/{z}/{x}/{y}.png")
        }
        let n = 1 << z
        guard (0..<n).contains(x), (0..<n).contains(y) else { return Self.error(404, "no tile \(z)/\(x)/\(y)") }
        let immutable = ("Cache-Control", "public, max-age=31536000, immutable")
        switch await source.tile(Tile(x: x, y: y, z: z), isCancelled: { false }) {
        case let .image(bytes, _, _):
            return ServerResponse(status: 200, headers: [("Content-Type", source.metadata.format.contentType(of: bytes)), immutable], body: bytes)
        case .empty, .outside:
            return ServerResponse(status: 200, headers: [("Content-Type", "image/png"), immutable], body: emptyTile)
        case .cancelled:
            return Self.error(503, "the client went away")
        case .failed(let why):
            return Self.error(500, why)
        }
    }

    /// The on-demand source of fit `version` (made on first use; the last four are kept).
    func overlaySource(_ version: String) throws -> OnDemandSource? {
        if let s = overlays.withLock({ $0.last { $0.version == version }?.source }) { return s }
        guard let fit = fits.withLock({ $0.last { $0.version == version }?.fit }) else { return nil }
        let scan = scanPath
        let input = WarpInput(path: scan, gcpSet: fit.check.set, fit: FitOptions(transform: fit.georeference.kind), mask: fit.check.mask)
        let source = try OnDemandSource(id: "overlay-" + version, queue: queue, memo: memo, log: log) {
            OnDemandSource.Loaded(job: TileJob(source: try input.resolve(), output: "", name: "overlay"))
        }
        overlays.withLock { list in
            if let s = list.last(where: { $0.version == version }) { _ = s; return }
            list.append((version, source))
            if list.count > 4 {
                for old in list.prefix(list.count - 4) { memo.removeVersions(of: old.source.id, except: "") }
                list.removeFirst(list.count - 4)
            }
        }
        return overlays.withLock { $0.last { $0.version == version }?.source }
    }

}
