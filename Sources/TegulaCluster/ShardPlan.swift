import Foundation
import TegulaComposite
import TegulaCrypto
import TegulaGeometry
import TegulaPyramid
import TegulaTileset

/// How N shards share a collection, computed alike by every shard from the same file (no
/// coordinator). Each map with an output of its own belongs to one shard. The composite is cut
/// at the cut zoom: each shard owns a run of tiles there, consecutive in id (Hilbert) order
/// (``CompositeLayout/ids``), and with them the whole quadkey subtree under each; it builds
/// every composite tile of its subtrees and writes them as its part. Work is balanced by
/// estimated cost, in output pixels: a map's warp (pixels at its warp zoom) counted twice for
/// the warp and tile stages, and each composite block's tiles at the max zoom per map that
/// reaches them. The composite runs are split first by the prefix sums of their cost, then the
/// maps go, largest first, to the least loaded shard (ties to the lowest index).
public struct ShardPlan: Sendable {
    /// How many shards.
    public let count: Int
    /// For each map, in file order, the shard that runs it.
    public let owners: [Int]
    /// Each map's estimated cost (pixels).
    public let mapCosts: [Int]
    /// The composite's split, when the file has a composite and every map could be planned.
    public let composite: CompositeSplit?
    /// Maps that cannot be planned (their error), which also keep the composite from being split.
    public let failures: [(index: Int, message: String)]

    /// Fixed cost of a map (opening and fitting), in pixels: one 256-px tile.
    static let mapOverhead = 256 * 256

    /// Plan `count` shards over a surveyed collection. `ownOutput` says, per map, whether it has
    /// an output of its own (a warp and tile stage to run); `composite` is the composite's tile
    /// settings, when there is one, and `grid` its tile matrix set when that is not
    /// WebMercatorQuad; `inputsHash` hashes what the composite's tiles depend on
    /// (``CompositeSplit/inputsHash``).
    package init(
        count: Int, survey: CollectionSurvey, ownOutput: [Bool], composite: TileSettings?, grid: TileMatrixSet? = nil,
        inputsHash: (CompositeLayout) -> String
    ) {
        self.count = count
        failures = survey.failures
        let mapCosts = ownOutput.indices.map { i in
            ShardPlan.mapOverhead + (ownOutput[i] ? 2 * survey.entries[i].warpPixels : 0)
        }
        self.mapCosts = mapCosts
        if let c = composite, failures.isEmpty,
            let layout = CompositeLayout(tile: c, survey: survey, grid: grid)
        {
            self.composite = CompositeSplit(layout: layout, count: count, inputsHash: inputsHash(layout))
        } else {
            self.composite = nil
        }
        var loads = self.composite?.costs ?? [Int](repeating: 0, count: count)
        var owners = [Int](repeating: 0, count: mapCosts.count)
        for i in mapCosts.indices.sorted(by: { (mapCosts[$0], -$0) > (mapCosts[$1], -$1) }) {
            let s = loads.indices.min { (loads[$0], $0) < (loads[$1], $1) }!
            owners[i] = s
            loads[s] += mapCosts[i]
        }
        self.owners = owners
    }

    /// The maps a shard runs, in file order.
    public func maps(of shard: Int) -> [Int] { owners.indices.filter { owners[$0] == shard } }

    /// Estimated cost per shard: its maps and its composite blocks.
    public var loads: [Int] {
        var l = composite?.costs ?? [Int](repeating: 0, count: count)
        for (i, s) in owners.enumerated() { l[s] += mapCosts[i] }
        return l
    }

    /// The largest shard's cost over the mean: 1 is perfect balance.
    public var balance: Double {
        let l = loads
        let mean = Double(l.reduce(0, +)) / Double(max(1, l.count))
        return mean > 0 ? Double(l.max() ?? 0) / mean : 1
    }

    /// The plan as text: one line per shard, then the balance.
    public var text: String {
        var lines: [String] = []
        if let c = composite {
            let l = c.layout
            lines.append(
                "composite: zooms \(l.zooms.min)-\(l.zooms.max), cut at zoom \(c.cutZoom) (\(c.cutTiles) tiles there hold blocks), "
                    + "\(l.blocks.count) blocks of \(1 << (l.zooms.max - l.blockZoom))×\(1 << (l.zooms.max - l.blockZoom)) tiles at zoom \(l.blockZoom), plan \(c.hash.prefix(12))"
            )
        }
        lines.append("shard  maps   map Mpx  cut tiles   blocks  composite Mpx  total Mpx")
        let l = loads
        for s in 0..<count {
            let mine = maps(of: s)
            let mapMpx = Double(mine.reduce(0) { $0 + mapCosts[$1] }) / 1e6
            let cut = composite.map { $0.cutTileCount(of: s) } ?? 0
            let blocks = composite.map { $0.blockRange(of: s).count } ?? 0
            let comp = Double(composite?.costs[s] ?? 0) / 1e6
            lines.append(String(format: "%5d %5d %9.1f %10d %8d %14.1f %10.1f", s, mine.count, mapMpx, cut, blocks, comp, Double(l[s]) / 1e6))
        }
        let mean = Double(l.reduce(0, +)) / Double(max(1, count)) / 1e6
        lines.append(String(format: "balance: max/mean %.3f (max %.1f Mpx, mean %.1f Mpx)", balance, Double(l.max() ?? 0) / 1e6, mean))
        return lines.joined(separator: "\n")
    }
}

/// The composite's zooms, blocks and bounds, from the survey.
public struct CompositeLayout: Sendable {
    /// The composite's zooms, and the zoom of its blocks (`CompositeBuilder.blockZoom(maxZoom:minZoom:)`).
    public let zooms: ZoomRange
    public let blockZoom: Int
    /// Pixels per tile side (tile size × scale).
    public let tilePixels: Int
    /// Every block some map reaches, in Hilbert order, with its maps bottom first.
    public let blocks: [CompositeBuilder.Block]
    /// The union of the maps' footprints, in EPSG:3857.
    public let bounds: ProjectedBounds
    /// Each map's footprint box (nil for a map that cannot be planned or reaches no tile), in
    /// file order, in the CRS of the grid the blocks are tiles of.
    public let layerBounds: [ProjectedBounds?]
    /// The tile matrix set the composite is cut in when it is not WebMercatorQuad; nil for
    /// EPSG:3857's grid.
    public let grid: TileMatrixSet?
    /// Why the composite cannot be cut in ``grid`` at ``zooms`` (then it has no blocks), or nil
    /// (``CompositeBuilder/gridRefusal(_:zooms:settings:output:)``'s quadtree conditions).
    public let gridProblem: String?
    /// How the blocks, runs and packs name the grid's tiles by ids (PMTiles' own in EPSG:3857's grid).
    public let ids: QuadtreeIDs

    /// Max zoom: given, else the highest warp zoom; min zoom: given, else the zoom at which the
    /// whole collection is about one tile. Nil when no map has a footprint. In another tile
    /// matrix set (`grid`) the blocks are cut on the maps' boxes in its CRS, the max zoom is the
    /// highest of their nearest zooms there and the min zoom the highest at which the union of
    /// their boxes fits in one tile (``TileJob/autoMinZoom(in:bounds:maxZoom:)``, a single map's
    /// choice); no blocks when those zooms are no quadtree there (``gridProblem``).
    init?(tile: TileSettings, survey: CollectionSurvey, grid: TileMatrixSet? = nil) {
        let entries = survey.entries
        let boxes = grid == nil ? entries.map(\.bounds) : entries.map(\.gridBounds)
        guard let first = entries.compactMap(\.bounds).first, let firstBox = boxes.compactMap({ $0 }).first,
            let maxZ = tile.zooms.max ?? (grid == nil ? entries.compactMap(\.warpZoom) : entries.compactMap(\.gridZoom)).max()
        else { return nil }
        var b = first, box = firstBox
        for e in entries { if let x = e.bounds { b = b.union(x) } }
        for x in boxes { if let x { box = box.union(x) } }
        bounds = b
        layerBounds = boxes
        self.grid = grid
        let auto =
            grid.map { TileJob.autoMinZoom(in: $0, bounds: box, maxZoom: maxZ) }
            ?? TileJob.autoMinZoom(bounds: b, maxZoom: maxZ, tileSize: tile.tileSize)
        let minZ = min(tile.zooms.min ?? auto, maxZ)
        guard let zooms = ZoomRange(min: minZ, max: maxZ) else { return nil }
        self.zooms = zooms
        blockZoom = CompositeBuilder.blockZoom(maxZoom: maxZ, minZoom: minZ)
        tilePixels = tile.tilePixels
        gridProblem = grid.flatMap { CompositeBuilder.quadtreeRefusal($0, zooms: zooms) }
        ids = grid.flatMap { QuadtreeIDs(grid: $0, zooms: zooms) } ?? .pmTiles
        blocks =
            gridProblem == nil ? CompositeBuilder.blocks(layerBounds: boxes, maxZoom: maxZ, blockZoom: blockZoom, grid: grid, ids: ids) : []
    }
}

/// The composite cut among the shards: the cut zoom and each shard's run of cut-zoom tiles.
public struct CompositeSplit: Sendable {
    /// The composite's zooms, blocks and bounds.
    public let layout: CompositeLayout
    /// The zoom at which shards own subtrees; zooms above it are built by the reduce.
    public let cutZoom: Int
    /// For each shard, its first and end (exclusive) Hilbert index at the cut zoom.
    public let ranges: [Range<UInt64>]
    /// Estimated cost (pixels) per shard.
    public let costs: [Int]
    /// SHA-256 over everything the composite's tiles depend on (``CompositeSplit/inputsHash``):
    /// the same for every shard count, since the split does not change a tile.
    public let inputsHash: String
    /// The plan's hash: the inputs' and the split (shard count, cut zoom, runs); a part written
    /// for another hash is stale.
    public let hash: String

    init(layout: CompositeLayout, count: Int, inputsHash inputs: String) {
        self.layout = layout
        let p2 = layout.tilePixels * layout.tilePixels
        let blockCost = layout.blocks.map { $0.cost * p2 + $0.layers.count * ShardPlan.mapOverhead / 4 }
        let total = blockCost.reduce(0, +)
        // The cut: one machine needs none (the lowest zoom); N shards the lowest zoom at which no
        // cut tile holds more than 1/(8N) of the work, so a run of them splits evenly.
        var cut = layout.blockZoom
        if count == 1 {
            cut = layout.zooms.min
        } else {
            for z in layout.zooms.min...layout.blockZoom {
                var per: [UInt64: Int] = [:]
                for (b, c) in zip(layout.blocks, blockCost) { per[layout.ids.hilbert(b.tile, at: z), default: 0] += c }
                if (per.values.max() ?? 0) * 8 * count <= total { cut = z; break }
            }
        }
        cutZoom = cut
        // Runs of cut tiles with equal shares of the cost: shard i starts at the first cut tile
        // whose preceding cost reaches i/N of the total (blocks come in Hilbert order).
        let end = layout.ids.hilbertEnd(at: cut)
        var starts: [UInt64] = [0]
        var costs = [Int](repeating: 0, count: count)
        var before = 0
        var shard = 0
        var k = 0
        while k < layout.blocks.count {
            let h = layout.ids.hilbert(layout.blocks[k].tile, at: cut)
            var tileCost = 0
            var j = k
            while j < layout.blocks.count, layout.ids.hilbert(layout.blocks[j].tile, at: cut) == h { tileCost += blockCost[j]; j += 1 }
            while shard + 1 < count, before * count >= (shard + 1) * total {
                shard += 1
                starts.append(h)
            }
            costs[shard] += tileCost
            before += tileCost
            k = j
        }
        while starts.count < count { starts.append(end) }
        ranges = (0..<count).map { starts[$0]..<(($0 + 1 < count) ? starts[$0 + 1] : end) }
        self.costs = costs
        inputsHash = inputs
        var h = ContentHash()
        h.update(inputs)
        h.update("shards \(ranges.count) cut \(cut)")
        for r in ranges { h.update("\(r.lowerBound)-\(r.upperBound)") }
        hash = h.finalize()
    }

    /// Hilbert indices of a shard's blocks: the blocks under its cut tiles, consecutive.
    public func blockRange(of shard: Int) -> Range<Int> {
        let r = ranges[shard]
        let lo = layout.blocks.partitioningIndex { layout.ids.hilbert($0.tile, at: cutZoom) >= r.lowerBound }
        let hi = layout.blocks.partitioningIndex { layout.ids.hilbert($0.tile, at: cutZoom) >= r.upperBound }
        return lo..<hi
    }

    /// How many cut tiles holding blocks a shard owns.
    func cutTileCount(of shard: Int) -> Int {
        Set(layout.blocks[blockRange(of: shard)].map { layout.ids.hilbert($0.tile, at: cutZoom) }).count
    }

    /// Count of cut tiles holding blocks.
    var cutTiles: Int { Set(layout.blocks.map { layout.ids.hilbert($0.tile, at: cutZoom) }).count }
}

extension Collection {
    /// The first index whose element satisfies `p`, for `p` false then true along the collection.
    func partitioningIndex(where p: (Element) -> Bool) -> Index {
        var lo = startIndex, n = count
        while n > 0 {
            let half = n / 2
            let mid = index(lo, offsetBy: half)
            if p(self[mid]) { n = half } else { lo = index(after: mid); n -= half + 1 }
        }
        return lo
    }
}
