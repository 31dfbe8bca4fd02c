import Foundation
import TegulaGeometry
import TegulaSupport
import Testing

@testable import TegulaPipeline

/// `tile.tms:` in a pipeline file: a map cut in WorldCRS84Quad (by its id, or from a TMS JSON
/// file beside the pipeline file) holds the set's tiles, 4 × 2 at zoom 1 as the OGC's document
/// has them, and its `tms.json`; an unknown set is refused at load naming the key, in a map's
/// tile section or the composite's (composites in another set: `CompositeGridTests`).
struct TileMatrixSetPipelineTests {
    /// The tiles of a folder at `zoom`, as `x/y`.
    func tiles(in folder: String, zoom: Int) throws -> Set<String> {
        var found = Set<String>()
        let fm = FileManager.default
        for x in try fm.contentsOfDirectory(atPath: "\(folder)/\(zoom)") {
            for f in try fm.contentsOfDirectory(atPath: "\(folder)/\(zoom)/\(x)") { found.insert("\(x)/\(f.split(separator: ".")[0])") }
        }
        return found
    }

    @Test(arguments: ["WorldCRS84Quad", "grid/crs84.json"])
    func aMapCutInWorldCRS84QuadHoldsItsTilesAndItsTMS(tms: String) throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        try f.image("world.tif")
        try FileManager.default.createDirectory(atPath: f.folder + "/grid", withIntermediateDirectories: true)
        try Data(try JSONStyle.readable.encode(try TileMatrixSet.document(named: "WorldCRS84Quad")))
            .write(to: URL(fileURLWithPath: f.folder + "/grid/crs84.json"))
        let path = try f.pipeline("version: 1\nmaps:\n" + PipelineFixtures.worldMap(tile: "{min_zoom: 0, max_zoom: 1, tms: \(tms)}"))
        let run = try runPipeline(path)
        #expect(run.error == nil, "\(String(describing: run.error))")
        let out = f.folder + "/out/world"
        let zoom1 = try tiles(in: out, zoom: 1)
        #expect(zoom1 == Set((0..<4).flatMap { x in (0..<2).map { y in "\(x)/\(y)" } }), "\(zoom1.sorted())")
        let written = try TileMatrixSet(argument: out + "/tms.json")
        #expect(written.id == "WorldCRS84Quad" && written.crs.hasSuffix("CRS84"))
    }

    @Test func anUnknownSetIsRefusedAtLoadNamingTheKey() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        try f.image("world.tif")
        let error = try f.loadError("version: 1\nmaps:\n" + PipelineFixtures.worldMap(tile: "{tms: NoSuchGrid}"))
        #expect(error.contains("tile.tms") && error.contains("'NoSuchGrid' is neither a built-in tile matrix set"), "\(error)")
    }

    @Test func aCompositeNamingAnUnknownSetIsRefusedAtLoadNamingTheKey() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        let error = try f.compositeLoadError("  tile: {tms: grid/none.json}\n")
        #expect(error.contains("composite.tile.tms") && error.contains("grid/none.json"), "\(error)")
    }
}
