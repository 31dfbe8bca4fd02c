import Foundation
import TegulaGeometry
import TegulaTileset
import Testing

@testable import TegulaPipeline

/// Stages alone and together, the skip-unchanged rule, --force, --dry-run.
struct StageTests {
    func outcomes(_ r: [MapResult]) -> [String] {
        r.flatMap { m in m.outcomes.map { "\($0.stage.rawValue):\($0.skipped ? "skipped" : "ran")" } }
    }

    @Test func runSkipsUnchangedAndRerunsOnlyWhatChanged() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        try f.image("world.tif")
        let path = try f.pipeline("version: 1\nmaps:\n" + PipelineFixtures.worldMap())
        let first = try runPipeline(path)
        #expect(first.error == nil, "\(String(describing: first.error))")
        #expect(outcomes(first.results) == ["georeference:ran", "warp:ran", "tile:ran"])
        let work = f.folder + "/.tegula/p/world"
        for file in ["georef.vrt", "warped.tif", "manifest.json"] {
            #expect(FileManager.default.fileExists(atPath: work + "/" + file), "\(file)")
        }
        let reader = try Tileset.openReader(at: f.folder + "/out/world")
        #expect(reader.metadata.zooms.min == 0 && reader.metadata.zooms.max == 1)
        #expect(try reader.tile(Tile(x: 1, y: 1, z: 1)) != nil)

        #expect(outcomes(try runPipeline(path).results) == ["georeference:skipped", "warp:skipped", "tile:skipped"])

        // Only a tile option changes: no re-warp.
        try f.pipeline("version: 1\nmaps:\n" + PipelineFixtures.worldMap(tile: "{min_zoom: 1, max_zoom: 1}"))
        #expect(outcomes(try runPipeline(path).results) == ["georeference:skipped", "warp:skipped", "tile:ran"])
        #expect(try Tileset.openReader(at: f.folder + "/out/world").metadata.zooms.min == 1)

        // The scan's bytes change: everything reruns.
        try f.image("world.tif", seed: 9)
        #expect(outcomes(try runPipeline(path).results) == ["georeference:ran", "warp:ran", "tile:ran"])

        // --force reruns unchanged stages.
        #expect(outcomes(try runPipeline(path, RunOptions(force: true, jobs: 2)).results) == ["georeference:ran", "warp:ran", "tile:ran"])
    }

    @Test func stagesOneByOneReadTheRecordedOutput() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        try f.image("world.tif")
        let path = try f.pipeline("version: 1\nmaps:\n" + PipelineFixtures.worldMap())

        let early = try runPipeline(path, RunOptions(stage: .warp, jobs: 2))
        let message = "\(early.error.map { "\($0)" } ?? "")"
        #expect(message.contains("'world'"), "\(message)")
        #expect(early.log.joined().contains("no recorded georeference output in \(f.folder)/.tegula/p/world; run the georeference stage first"))
        #expect(!FileManager.default.fileExists(atPath: f.folder + "/out/world"))

        #expect(outcomes(try runPipeline(path, RunOptions(stage: .georeference, jobs: 2)).results) == ["georeference:ran"])
        #expect(try runPipeline(path, RunOptions(stage: .tile, jobs: 2)).log.joined().contains("run the warp stage first"))
        #expect(outcomes(try runPipeline(path, RunOptions(stage: .warp, jobs: 2)).results) == ["warp:ran"])
        #expect(outcomes(try runPipeline(path, RunOptions(stage: .tile, jobs: 2)).results) == ["tile:ran"])
        #expect(Tileset.isTileset(at: f.folder + "/out/world"))
        #expect(outcomes(try runPipeline(path).results) == ["georeference:skipped", "warp:skipped", "tile:skipped"])
    }

    @Test func dryRunPlansAndWritesNothing() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        try f.image("world.tif", width: 512, height: 256)
        let path = try f.pipeline("version: 1\nmaps:\n" + PipelineFixtures.worldMap(tile: "{max_zoom: 2}"))
        let plan = PipelinePlan(pipeline: try Pipeline.load(path: path), options: RunOptions())
        #expect(!plan.hasErrors)
        let text = plan.text
        #expect(text.contains("georeference would run    bounds [-180.0, -85.0, 180.0, 85.0] in EPSG:4326 → georef.vrt"), "\(text)")
        #expect(text.contains("warp         would run    zoom 2, bilinear → warped.tif (1024 × "), "\(text)")
        #expect(
            text.contains("tile         would run    zooms 0-2, 21 tile positions (z0: 1, z1: 4, z2: 16), png 256 px xyz → \(f.folder)/out/world"),
            "\(text)")
        #expect(!FileManager.default.fileExists(atPath: f.folder + "/.tegula"))
        #expect(!FileManager.default.fileExists(atPath: f.folder + "/out"))
    }

    @Test func inputWithoutGeoreferenceIsAClearError() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        try f.image("plain.tif")
        let path = try f.pipeline("version: 1\nmaps:\n  - name: plain\n    input: plain.tif\n    output: out/plain\n")
        let r = try runPipeline(path)
        #expect(r.log.joined().contains("map 'plain', georeference stage: \(f.folder)/plain.tif has no georeference of its own"), "\(r.log)")
    }
}
