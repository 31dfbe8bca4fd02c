import Foundation
import TegulaComposite
import TegulaCrypto
import TegulaGeometry
import TegulaPyramid
import TegulaSupport
import TegulaTileset

/// What a shard's finished part holds, written last (`part-IIII-of-NNNN.json` beside its packs):
/// the plan it was built for, its run of cut-zoom tiles, its tile count and id range, and the
/// digest over its packs' digests in tile-id order.
package struct PartRecord: Codable, Equatable {
    /// The record format, `tegula-composite-part/1`.
    package var format = "tegula-composite-part/1"
    /// The plan's hash (``CompositeSplit/hash``).
    package var plan: String
    /// The shard's index and the shard count.
    package var shard: Int
    package var shards: Int
    /// The zoom at which the shards' runs are cut.
    package var cutZoom: Int
    /// First and end (exclusive) Hilbert index at the cut zoom.
    package var cutRange: [UInt64]
    /// The part's tile count, and its first and last tile id.
    package var tiles: Int
    package var firstTile: UInt64?
    package var lastTile: UInt64?
    /// SHA-256 over the packs' digests, in order.
    package var digest: String
    /// The pack files in tile-id order, with their tile counts and digests.
    package var packs: [Pack]
    /// ISO 8601 time the part was finished.
    package var finished: String

    /// One pack file of a part: its name, tile count and digest.
    package struct Pack: Codable, Equatable {
        package var file: String
        package var tiles: Int
        package var digest: String
    }
}

/// The composite's parts in the work folder: `<work>/.composite/parts/part-IIII-of-NNNN/`
/// (packs) and `part-IIII-of-NNNN.json` (the record). A shard writes only its own.
package struct CompositeParts {
    /// `<work>/.composite/parts`.
    package let folder: String

    /// The parts of the pipeline whose work folder is `workFolder`.
    package init(workFolder: String) { folder = workFolder + "/.composite/parts" }

    /// `part-IIII-of-NNNN`.
    package static func name(_ shard: Shard) -> String { String(format: "part-%04d-of-%04d", shard.index, shard.count) }
    /// The folder of a shard's packs.
    package func packFolder(_ shard: Shard) -> String { folder + "/" + CompositeParts.name(shard) }
    /// The path of a shard's record.
    package func recordPath(_ shard: Shard) -> String { folder + "/" + CompositeParts.name(shard) + ".json" }

    /// Every record file in the folder (`*.json`), read; nil for one that cannot be.
    package func records() -> [(file: String, record: PartRecord?)] {
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted()
        return files.map { f in
            (f, FileManager.default.contents(atPath: folder + "/" + f).flatMap { try? JSONDecoder().decode(PartRecord.self, from: $0) })
        }
    }

    /// Write a record atomically.
    package static func save(_ record: PartRecord, to path: String) throws {
        try AtomicFile.write(Array(try JSONStyle.readable.escapingSlashes.encode(record)), to: path)
    }
}

/// Builds one shard's part of the composite: its blocks in packs of `blocksPerPack` (each
/// committed as it finishes, so a killed shard rerun keeps the packs it finished and builds the
/// rest), then the zooms from the block zoom up to the cut zoom from the packs' block-zoom tiles
/// (``ParentBuilder``), then the record.
package struct CompositePartBuilder {
    let split: CompositeSplit
    let shard: Shard
    let parts: CompositeParts
    let builder: CompositeBuilder
    let blocksPerPack: Int
    let force: Bool
    let progress: (@Sendable (Int, Int) -> Void)?

    /// The part of `shard` under `split`, its blocks built by `builder` and committed
    /// `blocksPerPack` at a time; `force` rebuilds packs and a record that match the plan.
    package init(
        split: CompositeSplit, shard: Shard, parts: CompositeParts, builder: CompositeBuilder,
        blocksPerPack: Int, force: Bool, progress: (@Sendable (Int, Int) -> Void)?
    ) {
        self.split = split
        self.shard = shard
        self.parts = parts
        self.builder = builder
        self.blocksPerPack = blocksPerPack
        self.force = force
        self.progress = progress
    }

    /// Build the part (or keep it when its record matches the plan); returns a log line.
    package func run() throws -> String {
        let recordPath = parts.recordPath(shard), dir = parts.packFolder(shard)
        let name = CompositeParts.name(shard)
        if !force, let data = FileManager.default.contents(atPath: recordPath),
            let r = try? JSONDecoder().decode(PartRecord.self, from: data), r.plan == split.hash,
            r.packs.allSatisfy({ FileManager.default.fileExists(atPath: dir + "/" + $0.file) })
        {
            return "part \(shard) unchanged, \(r.tiles) tiles → \(name)"
        }
        unlink(recordPath)  // a part being built has no record
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let blocks = Array(split.layout.blocks[split.blockRange(of: shard.index)])
        let layout = split.layout, ids = layout.ids
        var packs: [(file: String, header: TilePack.Header)] = []
        var kept = 0, built = 0, blended = 0
        let groups = stride(from: 0, to: blocks.count, by: blocksPerPack).map {
            Array(blocks[$0..<min($0 + blocksPerPack, blocks.count)])
        }
        for (j, group) in groups.enumerated() {
            let file = String(format: "blocks-%06d.pack", j)
            if !force, let pack = TilePack.open(dir + "/" + file), pack.header.plan == split.hash {
                packs.append((file, pack.header))
                kept += 1
            } else {
                let tiles = Locked([UInt64: [UInt8]]())
                let stats = try builder.build(group) { t, data in tiles.withLock { $0[ids.id(of: t)] = data } }
                blended += stats.blended
                packs.append((file, try TilePack.write(tiles.withLock { $0 }, ids: ids, plan: split.hash, to: dir + "/" + file)))
                built += 1
            }
            progress?(j + 1, groups.count + 1)
        }
        if split.cutZoom < layout.blockZoom {
            let file = "upper.pack"
            if !force, let pack = TilePack.open(dir + "/" + file), pack.header.plan == split.hash {
                packs.insert((file, pack.header), at: 0)
            } else {
                // The parents are built on the quadtree the ids number (the tiles in id order are its tiles).
                var upper: [UInt64: [UInt8]] = [:]
                let parents = ParentBuilder(
                    lowestZoom: ids.quadtreeZoom(split.cutZoom), tilePixels: layout.tilePixels, encoding: builder.encoding
                ) { q, data in upper[PMTilesID.id(of: q)] = data }
                for (file, _) in packs {
                    guard let pack = TilePack.open(dir + "/" + file) else { throw ShardError(.missingParts, at: "\(dir)/\(file)", "pack vanished") }
                    for (id, data) in try pack.tiles(zoom: layout.blockZoom) { try parents.add(PMTilesID.tile(of: id), encoded: data) }
                }
                try parents.finish()
                packs.insert((file, try TilePack.write(upper, ids: ids, plan: split.hash, to: dir + "/" + file)), at: 0)
            }
        }
        progress?(groups.count + 1, groups.count + 1)
        removeStale(in: dir, keeping: Set(packs.map(\.file)))
        var digest = ContentHash()
        for p in packs { digest.update(p.header.digest) }
        let r = split.ranges[shard.index]
        let record = PartRecord(
            plan: split.hash, shard: shard.index, shards: shard.count, cutZoom: split.cutZoom,
            cutRange: [r.lowerBound, r.upperBound], tiles: packs.reduce(0) { $0 + $1.header.tiles },
            firstTile: packs.compactMap(\.header.first).min(), lastTile: packs.compactMap(\.header.last).max(),
            digest: digest.finalize(),
            packs: packs.map { PartRecord.Pack(file: $0.file, tiles: $0.header.tiles, digest: $0.header.digest) },
            finished: ISO8601DateFormatter().string(from: Date()))
        try CompositeParts.save(record, to: recordPath)
        let resumed = kept > 0 ? ", \(kept) kept from an earlier run" : ""
        return "part \(shard): \(blocks.count) blocks (\(blended) blended) in \(groups.count) packs\(resumed), \(record.tiles) tiles → \(name)"
    }

    /// Packs of another plan go; temporary files only once a day old (a duplicate of this shard
    /// may be writing them right now).
    func removeStale(in dir: String, keeping: Set<String>) {
        let fm = FileManager.default
        for f in (try? fm.contentsOfDirectory(atPath: dir)) ?? [] {
            let path = dir + "/" + f
            if f.hasSuffix(".pack") && !keeping.contains(f) {
                unlink(path)
            } else if f.hasPrefix("."), f.contains(".tmp-"),
                let date = (try? fm.attributesOfItem(atPath: path))?[.modificationDate] as? Date,
                Date().timeIntervalSince(date) > 86_400
            {
                unlink(path)
            }
        }
    }
}
