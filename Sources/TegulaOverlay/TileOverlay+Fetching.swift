import Foundation
import TegulaGeometry

/// The client entry point: range checks, the LRU cache, one shared load per in-flight path, and
/// overzoom, on top of the `loadTile(at:)` hook.
extension TileOverlay {
    /// The bytes of a tile as a map view should get them.
    ///
    /// 1. A path outside `minimumZ...maximumZ` or the zoom's grid throws `.pathOutOfRange`.
    /// 2. A cached answer (tile or missing) is returned at once.
    /// 3. Otherwise one load runs per path, however many tasks ask at the same time; all of them
    ///    get its result. Tiles and missing answers are cached; failures are not.
    /// 4. Deeper than `maximumNativeZ`, the tile is cut from the native ancestor (itself fetched
    ///    through this same path) and enlarged by `overzoomRenderer`; else `loadTile(at:)` is called.
    ///
    /// Throws `.tileMissing` for a tile that does not exist, other errors for failures.
    public func fetchTile(at path: TileOverlayPath) async throws -> Data {
        let (minZ, maxZ) = settings.withLock { ($0.minimumZ, $0.maximumZ) }
        guard path.isValid, path.z >= minZ, path.z <= maxZ else {
            throw TileOverlayError.pathOutOfRange(path: path, minimumZ: minZ, maximumZ: maxZ)
        }
        if let entry = cache.entry(for: path) { return try Self.data(of: entry, path: path) }
        let task = inFlight.withLock { loads in
            if let running = loads[path] { return running }
            let started = Task { try await self.loadAndRemember(path) }
            loads[path] = started
            return started
        }
        return try Self.data(of: try await task.value, path: path)
    }

    /// Number of paths with a load under way; for this package's tests (`@testable import`), not
    /// part of the API.
    var loadsInFlight: Int { inFlight.withLock { $0.count } }

    private static func data(of entry: TileCache.Entry, path: TileOverlayPath) throws -> Data {
        switch entry {
        case let .tile(data): return data
        case let .missing(source): throw TileOverlayError.tileMissing(path: path, source: source)
        }
    }

    /// Runs once per in-flight path: loads, caches the answer, and leaves the in-flight table.
    private func loadAndRemember(_ path: TileOverlayPath) async throws -> TileCache.Entry {
        defer { _ = inFlight.withLock { $0.removeValue(forKey: path) } }
        let entry: TileCache.Entry
        do {
            entry = .tile(try await resolve(path))
        } catch let error as TileOverlayError where error.isMissingTile {
            entry = .missing(source: error.source ?? "")
        }
        cache.insert(entry, for: path)
        return entry
    }

    private func resolve(_ path: TileOverlayPath) async throws -> Data {
        if let native = maximumNativeZ, let crop = OverzoomCrop(tile: tile(for: path), nativeZoom: native) {
            guard let renderer = overzoomRenderer else {
                throw TileOverlayError.imageFailed(
                    path: path, reason: "no overzoomRenderer is set (TegulaTilesetOverlay's PNGOverzoomRenderer decodes and encodes tiles)")
            }
            let ancestorPath = self.path(for: crop.ancestor, contentScaleFactor: path.contentScaleFactor)
            let ancestor: Data
            do {
                ancestor = try await fetchTile(at: ancestorPath)
            } catch let error as TileOverlayError where error.isMissingTile {
                throw TileOverlayError.tileMissing(path: path, source: "overzoom ancestor \(ancestorPath)")
            }
            return try renderer.render(ancestor, crop: crop, path: path)
        }
        loadCount.withLock { $0 += 1 }
        return try await loadTile(at: path)
    }
}
