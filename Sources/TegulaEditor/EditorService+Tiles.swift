import Foundation
import TegulaGeometry
import TegulaGeoreference
import TegulaHTTP
import TegulaOnDemand
import TegulaPyramid
import TegulaServer
import TegulaWarp

/// Tiles of the scan warped by one fit (by version), on demand. (The raw scan is its IIIF
/// service's, ``ScanPane``.)
extension EditorService {
    /// Zooms, bounds and the tile template of a fit's overlay (`/overlay/{version}.json`):
    /// `minzoom`, `maxzoom`, `bounds` as `[west, south, east, north]` and `tiles`.
    struct OverlayInfo: Encodable {
        var zooms: ZoomRange
        var bounds: GeoBounds
        var tiles: String

        enum CodingKeys: String, CodingKey { case minzoom, maxzoom, bounds, tiles }

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(zooms.min, forKey: .minzoom)
            try c.encode(zooms.max, forKey: .maxzoom)
            try c.encode([bounds.west, bounds.south, bounds.east, bounds.north], forKey: .bounds)
            try c.encode(tiles, forKey: .tiles)
        }
    }

    /// `/overlay/{version}.json`.
    func overlayInfo(_ version: String) throws -> ServerResponse {
        .json(Self.info(of: try overlay(version), at: "/overlay/\(version)"))
    }

    /// The zooms, bounds and tile template of an on-demand source whose tiles are under `prefix`.
    static func info(of source: OnDemandSource, at prefix: String) -> OverlayInfo {
        let m = source.metadata
        return OverlayInfo(zooms: m.zooms, bounds: m.bounds, tiles: "\(prefix)/{z}/{x}/{y}.\(m.format.fileExtension)")
    }

    /// `/overlay/{version}/{z}/{x}/{y}.png`: the scan warped by the fit of that version, rendered
    /// on demand by ``OnDemandSource``. The URL names the fit, so tiles are immutable. Another
    /// extension or `@2x` is refused as `tegula serve` refuses it of a tileset (404).
    func overlayTile(_ version: String, _ path: TilePath, isCancelled: @escaping @Sendable () -> Bool) async throws -> ServerResponse {
        try await tile(
            path, of: try overlay(version), id: "overlay of fit \(version)", cacheControl: "public, max-age=31536000, immutable",
            isCancelled: isCancelled)
    }

    /// A tile of an on-demand source (a fit's overlay, the reference), named `id` in refusals,
    /// sent with `cacheControl`; a tile with nothing on it is a clear PNG.
    func tile(
        _ path: TilePath, of source: OnDemandSource, id: String, cacheControl: String,
        isCancelled: @escaping @Sendable () -> Bool
    ) async throws -> ServerResponse {
        if let refused = TileService.refusal(id: id, fileExtension: path.fileExtension, retina: path.retina, source.metadata) { throw refused }
        let tile = Tile(x: path.x, y: path.y, z: path.z)
        switch await source.tile(tile, isCancelled: isCancelled) {
        case let .image(bytes, _, _):
            return ServerResponse(
                status: .ok, headers: [.contentType: source.metadata.format.contentType(of: bytes), .cacheControl: cacheControl],
                body: bytes)
        case .empty, .outside:
            return ServerResponse(status: .ok, headers: [.contentType: "image/png", .cacheControl: cacheControl], body: emptyTile)
        case .cancelled:
            throw TileServerError.clientGone(tile: tile)
        case .failed(let why), .unavailable(let why, _):
            throw TileServerError.renderFailed(id: id, tile: tile, reason: why)
        }
    }

    /// The on-demand source of fit `version`, or a 404 (no such fit) or 500 (cannot render).
    func overlay(_ version: String) throws -> OnDemandSource {
        let source: OnDemandSource?
        do { source = try overlaySource(version) } catch {
            throw TileServerError(.renderFailed, "the overlay of fit \(version) cannot be rendered: \(error)")
        }
        guard let source else { throw ServerError(.noRoute, "no fit with version '\(version)': POST /api/fit first") }
        return source
    }

    /// The on-demand source of fit `version` (made on first use; the last four are kept).
    func overlaySource(_ version: String) throws -> OnDemandSource? {
        if let s = overlays.withLock({ $0.last { $0.version == version }?.source }) { return s }
        guard let fit = fits.withLock({ $0.last { $0.version == version }?.fit }) else { return nil }
        let scan = scanPath, scans = self.scans
        let input = WarpInput(path: scan, gcpSet: fit.check.set, fit: FitOptions(transform: fit.georeference.kind), mask: fit.check.mask)
        let source = try OnDemandSource(id: "overlay-" + version, queue: queue, memo: memo, log: log) {
            OnDemandSource.Loaded(job: TileJob(source: try input.resolve(opening: scans), output: "", name: "overlay"))
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
