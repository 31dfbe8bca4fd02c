import Foundation
import TegulaCluster
import TegulaSupport
import TegulaTestSupport
import Testing

@testable import TegulaPipeline

/// "A sharded run equals the single run byte for byte" for a series pipeline writing
/// `out/series.pmtiles` and its sheet index: the one check ``SeriesTests``, ``AutoTiesTests`` and
/// ``TiePlacementTests`` make of their own series.
enum ShardedRun {
    /// Runs `file` whole, then from nothing (its output and work folder removed) as three shards
    /// and the reduce, and expects the same tiles (``TilesetDigest``) and the same
    /// `out/series.index.geojson`, byte for byte. Returns that index.
    @discardableResult
    static func expectSameAsSingle(_ file: String, folder: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Data {
        func runner(_ shard: Shard?) throws -> PipelineRunner {
            PipelineRunner(pipeline: try Pipeline.load(path: file), options: RunOptions(jobs: 2, shard: shard), log: { _ in }, progress: nil)
        }
        try runner(nil).run()
        let single = try TilesetDigest.of(folder + "/out/series.pmtiles")
        let index = try Data(contentsOf: URL(fileURLWithPath: folder + "/out/series.index.geojson"))
        try FileManager.default.removeItem(atPath: folder + "/out")
        try FileManager.default.removeItem(atPath: try Pipeline.load(path: file).workFolder)
        for i in 0..<3 { try runner(Shard(index: i, count: 3)).run() }
        try runner(nil).reduce(shards: nil)
        let sharded = try TilesetDigest.of(folder + "/out/series.pmtiles")
        #expect(single.tiles > 0 && sharded.digest == single.digest && sharded.tiles == single.tiles, sourceLocation: sourceLocation)
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/out/series.index.geojson")) == index, sourceLocation: sourceLocation)
        return index
    }
}
