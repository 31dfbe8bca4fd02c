import Foundation
import TegulaGDAL
import TegulaGeometry
import TegulaSupport
import TegulaTileset
import TegulaWarp

/// Cutting in a tile matrix set other than WebMercatorQuad (`--tms`, `tile.tms:`): the scan is
/// warped straight into the set's CRS from its fit (``WarpSource/reprojected(to:)``), with the
/// same kernels, blocks and transform grids; zooms that nest as a quadtree are built by halving
/// as in Web Mercator, the others warped each from the scan (``PyramidPlan/quadtreeRuns(of:zooms:)``).
/// WebMercatorQuad itself never comes here: its path is ``run(progress:)``'s, byte for byte.
extension TileJob {
    /// True when the job cuts in another set than WebMercatorQuad.
    public var cutsInGrid: Bool { tms != .webMercatorQuad }

    /// The name of the file a folder output carries its tile matrix set in (TMS 2.0 JSON).
    public static let tileMatrixSetFileName = Tileset.tileMatrixSetFileName

    /// The source warped into the set's CRS.
    func gridSource() throws -> WarpSource {
        try source.reprojected(to: try CRS(tms.crs))
    }

    /// The box of a source's footprint (in the set's CRS), within the set's extent; nil when they
    /// do not meet (``WarpSource/gridBounds(in:)``).
    func gridBounds(of s: WarpSource) -> GridBounds? { s.gridBounds(in: tms) }

    /// The zooms in the set: those asked for, checked against the set's; max `auto` is the zoom
    /// whose cell size is nearest the scan's native resolution (log scale), min `auto` the highest
    /// zoom at which the scan's box fits in one tile's span (else the set's first).
    func gridZoomRange(in s: WarpSource) throws -> ZoomRange {
        guard let b = gridBounds(of: s) else { throw PyramidError(.emptyFootprint, at: source.path, "the scan lies outside \(tms.id)'s extent") }
        let maxZ = try settings.zooms.max ?? s.nearestZoom(in: tms, within: b)
        let minZ = settings.zooms.min ?? Self.autoMinZoom(in: tms, bounds: b, maxZoom: maxZ)
        guard tms.zooms.contains(minZ), tms.zooms.contains(maxZ), let zooms = ZoomRange(min: minZ, max: maxZ) else {
            throw PyramidError(.badZooms, "zooms \(minZ)-\(maxZ) are not in \(tms.id), whose zooms are \(tms.minZoom)-\(tms.maxZoom)")
        }
        return zooms
    }

    /// Min zoom `auto` in `tms` for a box `b` in its CRS and a max zoom: the highest zoom at which
    /// the box fits in one tile's span, else the set's first.
    public static func autoMinZoom(in tms: TileMatrixSet, bounds b: GridBounds, maxZoom: Int) -> Int {
        let fits =
            tms.zooms.contains(maxZoom)
            ? (tms.minZoom...maxZoom).last { max(b.width, b.height) <= tms.tileMatrices[$0 - tms.minZoom].tileSpanX } : nil
        return fits ?? tms.minZoom
    }

    /// Why this job cannot cut in its set, in one line, or nil (``gridRefusal(_:zooms:settings:output:)``).
    func gridRefusal(zooms: ZoomRange) -> String? { Self.gridRefusal(tms, zooms: zooms, settings: settings, output: output) }

    /// Why `zooms` of `tms` cannot be cut with `settings` into `output`, in one line, or nil:
    /// MBTiles and PMTiles hold Web Mercator's tiles alone; the set's tiles must be the size asked
    /// for, at scale 1, in its own rows, with no coalesced rows. `zooms` lie in the set.
    public static func gridRefusal(_ tms: TileMatrixSet, zooms: ZoomRange, settings: TileSettings, output: String) -> String? {
        let form = Tileset.form(of: output)
        if form == .mbtiles || form == .pmtiles {
            return "\(form == .mbtiles ? "MBTiles" : "PMTiles") holds WebMercatorQuad tiles only, not \(tms.id)'s: "
                + "write a GeoPackage (OUT.gpkg) or a folder"
        }
        if settings.scale != 1 { return "scale \(settings.scale) is for WebMercatorQuad's @2x tiles: \(tms.id)'s tiles are cut at scale 1" }
        if settings.layout != .topLeft { return "layout tms flips WebMercatorQuad's rows: \(tms.id) numbers its rows from its own corner" }
        for z in zooms.levels {
            let m = tms.tileMatrices[z - tms.minZoom]
            if m.variableMatrixWidths != nil {
                // Coalesced rows hold tiles wider than their cells' columns: the blocks and halving
                // here cut every column alike, so such a zoom is refused rather than cut wrong.
                let whole = tms.zooms.filter { tms.tileMatrices[$0 - tms.minZoom].variableMatrixWidths == nil }
                return "\(tms.id)'s zoom \(z) coalesces the tiles of some rows (variableMatrixWidths), which Tegula does not cut: "
                    + (whole.isEmpty ? "choose another set" : "choose zooms \(Self.ranges(whole)) or another set")
            }
            if m.tileWidth != settings.tileSize || m.tileHeight != settings.tileSize {
                return "\(tms.id)'s tiles at zoom \(z) are \(m.tileWidth) × \(m.tileHeight) px, not \(settings.tileSize): "
                    + "give the tile size \(m.tileWidth)" + (m.tileWidth == m.tileHeight ? "" : " (square tiles only)")
            }
        }
        return nil
    }

    /// Zooms as runs, `0, 3-5`.
    static func ranges(_ zooms: [Int]) -> String {
        var runs: [ClosedRange<Int>] = []
        for z in zooms {
            if let last = runs.last, last.upperBound + 1 == z { runs[runs.count - 1] = last.lowerBound...z } else { runs.append(z...z) }
        }
        return runs.map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)-\($0.upperBound)" }.joined(separator: ", ")
    }

    /// Cut the pyramid in ``tms``: each run of nesting zooms one plan, built as the Web Mercator
    /// pyramid is, into one output. Returns the builders' counters, summed.
    func runInGrid(progress: (@Sendable (PyramidBuilder.Stats, Int) -> Void)?) throws -> PyramidBuilder.Stats {
        let inputs = watchedInputs.map { ($0, FileIdentity(path: $0)) }
        let grid = try gridSource()
        let zooms = try gridZoomRange(in: grid)
        if let refusal = gridRefusal(zooms: zooms) { throw PyramidError(.gridNotHeld, at: output, refusal) }
        guard let bounds = gridBounds(of: grid) else {
            throw PyramidError(.emptyFootprint, at: source.path, "the scan lies outside \(tms.id)'s extent")
        }
        let positions = zooms.levels.reduce(0) { n, z in
            let r = tms.tileRange(covering: bounds, zoom: z)
            return n + r.x.count * r.y.count
        }
        guard positions <= Self.maximumTilePositions else {
            throw PyramidError(
                .tooManyTiles, at: source.path,
                String(
                    format: "zooms %d-%d of %@ over this scan make %.3g tile positions, past the %.3g one run takes; choose a lower max zoom",
                    zooms.min, zooms.max, tms.id, Double(positions), Double(Self.maximumTilePositions)))
        }
        let plans = try PyramidPlan.quadtreeRuns(of: tms, zooms: zooms).map {
            try PyramidPlan(grid: tms, bounds: bounds, zooms: $0, tilePixels: settings.tilePixels)
        }
        let e = settings.encoding
        let writer = try openOutput()
        try stampOutput(zooms: zooms)
        let existing = resume ? Tileset.existingTiles(at: output, tms: tms) : []
        let emit: @Sendable (Tile, [UInt8]) throws -> Void = { tile, data in try writer.write(tile, data: data) }
        let total = plans.reduce(0) { $0 + $1.tilePositions }
        var stats = PyramidBuilder.Stats()
        for plan in plans {
            let before = stats
            let builder = PyramidBuilder(source: grid, plan: plan, resampling: settings.resampling, encoding: e, jobs: jobs, existing: existing)
            var report: (@Sendable (PyramidBuilder.Stats) -> Void)? = nil
            if let progress { report = { s in progress(before.adding(s), total) } }
            stats = before.adding(try builder.run(emit: emit, progress: report))
        }
        for (path, identity) in inputs {
            if let change = identity?.change(at: path) {
                throw PyramidError(.inputChanged, at: path, "\(change) while it was tiled; \(output) was not finished: run again without --resume")
            }
        }
        try writer.finish(metadata: metadata(zooms: zooms))  // a folder's tms.json too, before its tiles.json
        ResumeStamp.remove(beside: output)
        return stats
    }
}

extension PyramidBuilder.Stats {
    /// These counters and `other`'s together (two runs of one output).
    func adding(_ other: PyramidBuilder.Stats) -> PyramidBuilder.Stats {
        var s = self
        s.tilesWritten += other.tilesWritten
        s.bytesWritten += other.bytesWritten
        s.tilesEmpty += other.tilesEmpty
        s.tilesSkipped += other.tilesSkipped
        s.positionsDone += other.positionsDone
        s.warpSeconds += other.warpSeconds
        s.downsampleSeconds += other.downsampleSeconds
        s.encodeSeconds += other.encodeSeconds
        s.writeSeconds += other.writeSeconds
        s.gridErrors.add(other.worstGridError)
        return s
    }
}
