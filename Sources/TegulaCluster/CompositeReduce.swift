import Foundation
import TegulaComposite
import TegulaCrypto
import TegulaGeometry
import TegulaPyramid
import TegulaSupport
import TegulaTileset

/// `tegula run FILE --stage reduce`: the shards' parts merged into the composite. The parts are
/// checked first (one line naming every part missing, duplicated, overlapping or written for
/// another plan); then read zoom by zoom, part by part in the order of their runs, pack by pack,
/// which is tile-id order: each tile is checked to lie in its part's run and to come after the
/// one before, copied to the output, and at the cut zoom fed to a ``ParentBuilder`` that builds
/// the zooms above it. Every pack's digest is recomputed on the way; the output is written
/// under a temporary name and moved into place only when all of them match.
package struct CompositeReduce {
    let split: CompositeSplit
    let parts: CompositeParts
    let output: String
    let metadata: TilesetMetadata
    /// The composite's encoding, for the zooms built above the cut (its format is the metadata's).
    let encoding: TileEncoding
    let progress: (@Sendable (Int, Int) -> Void)?

    /// The reduce of `parts` under `split` into `output`, described by `metadata`, the zooms above
    /// the cut encoded in `encoding`.
    package init(
        split: CompositeSplit, parts: CompositeParts, output: String, metadata: TilesetMetadata,
        encoding: TileEncoding, progress: (@Sendable (Int, Int) -> Void)?
    ) {
        self.split = split
        self.parts = parts
        self.output = output
        self.metadata = metadata
        self.encoding = encoding
        self.progress = progress
    }

    /// What was merged: tiles copied from parts and built above the cut, and the parts' tiles.
    package struct Result { package var copied = 0; package var built = 0; package var bytes = 0; package var parts = 0 }

    /// The current plan's records, one per shard, or a refusal naming every bad part.
    package static func check(_ found: [(file: String, record: PartRecord?)], split: CompositeSplit, parts: CompositeParts) throws -> [PartRecord] {
        let n = split.ranges.count
        var problems: [(ShardErrorReason, String)] = []
        let unreadable = found.filter { $0.record == nil }.map(\.file)
        if !unreadable.isEmpty {
            problems.append((.corruptPart, "unreadable part records \(unreadable.joined(separator: ", "))"))
        }
        let stale = found.filter { $0.record.map { $0.plan != split.hash } ?? false }
        if !stale.isEmpty {
            problems.append(
                (
                    .staleParts,
                    "stale parts \(stale.map { ($0.file as NSString).deletingPathExtension }.joined(separator: ", ")) "
                        + "(written for another plan: the pipeline file, its inputs or the shard count changed; current plan \(split.hash.prefix(12)) for \(n) shards); "
                        + "rerun those shards or delete them from \(parts.folder)"
                ))
        }
        let current = found.compactMap { f in f.record.flatMap { $0.plan == split.hash ? (f.file, $0) : nil } }
        var byShard: [Int: [String]] = [:]
        for (file, r) in current { byShard[r.shard, default: []].append(file) }
        for (shard, files) in byShard.sorted(by: { $0.key < $1.key }) where files.count > 1 {
            problems.append((.duplicateParts, "duplicate parts for shard \(shard) of \(n): \(files.joined(separator: " and "))"))
        }
        let missing = (0..<n).filter { byShard[$0] == nil }
        if !missing.isEmpty {
            let list =
                missing.count > 12
                ? missing.prefix(12).map(String.init).joined(separator: ", ") + " and \(missing.count - 12) more"
                : missing.map(String.init).joined(separator: ", ")
            problems.append(
                (
                    .missingParts,
                    "missing parts \(list) of \(n) (run tegula run FILE --shard I/\(n) for each; found \(n - missing.count) in \(parts.folder))"
                ))
        }
        let sorted = current.sorted { ($0.1.cutRange.first ?? 0, $0.1.shard) < ($1.1.cutRange.first ?? 0, $1.1.shard) }
        for (a, b) in zip(sorted, sorted.dropFirst()) where a.1.shard != b.1.shard {
            if a.1.cutRange.count != 2 || b.1.cutRange.count != 2 || a.1.cutRange[1] > b.1.cutRange[0] {
                problems.append((.overlappingParts, "parts \(a.0) and \(b.0) overlap (cut-zoom runs \(a.1.cutRange) and \(b.1.cutRange))"))
            }
        }
        for (file, r) in current where r.shard < n && r.cutRange != [split.ranges[r.shard].lowerBound, split.ranges[r.shard].upperBound] {
            problems.append((.overlappingParts, "part \(file) holds the run \(r.cutRange), not its own \(split.ranges[r.shard])"))
        }
        if let first = problems.first {
            throw ShardError(first.0, at: parts.folder, "reduce refused: " + problems.map(\.1).joined(separator: "; "))
        }
        return current.map(\.1).sorted { $0.shard < $1.shard }
    }

    /// Merge the parts (already checked) into the output.
    package func run(_ records: [PartRecord]) throws -> Result {
        let layout = split.layout
        let tmp = CompositeReduce.temporaryPath(for: output)
        try? FileManager.default.removeItem(atPath: tmp)
        try FileManager.default.createDirectory(atPath: output.parentPath, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: tmp) }
        // A GeoPackage gets the set's CRS as PROJ defines it; a folder in another set, its tms.json.
        let tms = layout.grid ?? .webMercatorQuad
        let geoPackageCRS = Tileset.form(of: output) == .geopackage ? try GeoPackageTileWriter.SpatialReference(crsOf: tms) : nil
        let writer = try Tileset.openWriter(
            at: tmp, format: metadata.format, layout: .topLeft, scale: metadata.scale, tms: tms, tilePixels: layout.tilePixels,
            geoPackageCRS: geoPackageCRS)
        var result = Result()
        result.parts = records.count
        let ordered = records.sorted { $0.cutRange[0] < $1.cutRange[0] }
        var digests: [String: ContentHash] = [:]
        var counts: [String: Int] = [:]
        // The parents are built on the quadtree the ids number, and written as the set's tiles.
        let ids = layout.ids
        let parents = ParentBuilder(lowestZoom: ids.quadtreeZoom(layout.zooms.min), tilePixels: layout.tilePixels, encoding: encoding) { q, data in
            try writer.write(ids.gridTile(q), data: data)
            result.built += 1
            result.bytes += data.count
        }
        let zooms = Array(split.cutZoom...layout.zooms.max)
        var last: UInt64?
        for (step, z) in zooms.enumerated() {
            for record in ordered {
                let dir = parts.packFolder(Shard(index: record.shard, count: record.shards)!)
                for p in record.packs {
                    let key = dir + "/" + p.file
                    guard let pack = TilePack.open(key), pack.header.digest == p.digest else {
                        throw ShardError(
                            .corruptPart, at: key,
                            "reduce refused: the pack is missing or does not match the record of \(CompositeParts.name(Shard(index: record.shard, count: record.shards)!))"
                        )
                    }
                    var digest = digests[key] ?? ContentHash()
                    for (id, data) in try pack.tiles(zoom: z) {
                        let t = ids.tile(of: id)
                        let h = ids.hilbert(t, at: split.cutZoom)
                        guard h >= record.cutRange[0], h < record.cutRange[1] else {
                            throw ShardError(.overlappingParts, at: key, "reduce refused: tile \(t) lies outside its part's run \(record.cutRange)")
                        }
                        if let l = last, id <= l {
                            throw ShardError(.overlappingParts, at: key, "reduce refused: tile \(t) comes twice or out of order (parts overlap)")
                        }
                        last = id
                        digest.update(TilePack.record(id, data))
                        digest.update(data)
                        counts[key, default: 0] += 1
                        try writer.write(t, data: data)
                        result.copied += 1
                        result.bytes += data.count
                        if z == split.cutZoom { try parents.add(ids.quadtreeTile(t), encoded: data) }
                    }
                    digests[key] = digest
                }
            }
            progress?(step + 1, zooms.count + 1)
        }
        try parents.finish()
        for record in ordered {
            let dir = parts.packFolder(Shard(index: record.shard, count: record.shards)!)
            for p in record.packs {
                let key = dir + "/" + p.file
                let d = digests[key] ?? ContentHash()
                guard d.finalize() == p.digest, counts[key, default: 0] == p.tiles else {
                    throw ShardError(
                        .corruptPart, at: key,
                        "reduce refused: its tiles do not match their digest in the record of \(CompositeParts.name(Shard(index: record.shard, count: record.shards)!))"
                    )
                }
            }
        }
        try writer.finish(metadata: metadata)  // a folder's tms.json too, before its tiles.json
        try Tileset.replace(output, with: tmp)
        progress?(zooms.count + 1, zooms.count + 1)
        return result
    }

    /// A name beside `output` of the same form (folder, .mbtiles, .pmtiles).
    static func temporaryPath(for output: String) -> String {
        let dir = output.parentPath, base = (output as NSString).lastPathComponent
        let ext = (base as NSString).pathExtension
        let stem = ext.isEmpty ? base : (base as NSString).deletingPathExtension
        return dir + "/.\(stem).reduce-\(getpid())" + (ext.isEmpty ? "" : "." + ext)
    }
}
