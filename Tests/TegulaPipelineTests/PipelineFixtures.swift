import Foundation
import TegulaGDAL
import TegulaTestSupport
import Testing

@testable import TegulaPipeline

/// Small generated inputs: a temporary folder, a plate carrée test image, pipeline files.
struct PipelineFixtures {
    let folder: String

    /// A fresh temporary folder (removed by `cleanUp`).
    init() throws {
        folder = NSTemporaryDirectory() + "tegula-pipeline-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    func cleanUp() { try? FileManager.default.removeItem(atPath: folder) }

    /// A `width` × `height` RGB GeoTIFF without georeference: a colour gradient.
    @discardableResult
    func image(_ name: String, width: Int = 128, height: Int = 64, seed: UInt8 = 0) throws -> String {
        let path = folder + "/" + name
        let ds = try Dataset.create(path: path, driver: "GTiff", width: width, height: height, bands: 3)
        var px = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                px[i] = UInt8(truncatingIfNeeded: x * 2 &+ Int(seed))
                px[i + 1] = UInt8(truncatingIfNeeded: y * 4)
                px[i + 2] = seed
            }
        }
        try px.withUnsafeBufferPointer { try ds.writeBytes(x: 0, y: 0, width: width, height: height, bands: [1, 2, 3], from: $0.baseAddress!) }
        try ds.flush()
        return path
    }

    /// Write a pipeline file and return its path.
    @discardableResult
    func pipeline(_ text: String, name: String = "p.yml") throws -> String {
        let path = folder + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The error `Pipeline.load` throws for `text`, as printed.
    func loadError(_ text: String) throws -> String {
        let path = try pipeline(text, name: "bad.yml")
        do {
            _ = try Pipeline.load(path: path)
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    /// The error `Pipeline.load` throws for a one-map pipeline (`world.tif` as map `a`, made
    /// when missing) with a composite whose section holds `output: out/c.pmtiles` and `composite`'s lines.
    func compositeLoadError(_ composite: String) throws -> String {
        if !FileManager.default.fileExists(atPath: folder + "/world.tif") { try image("world.tif") }
        return try loadError("version: 1\nmaps:\n" + Self.worldMap(name: "a") + "composite:\n  output: out/c.pmtiles\n" + composite)
    }

    /// A one-map pipeline of a generated plate carrée image at zooms 0–1.
    static func worldMap(
        name: String = "world", input: String = "world.tif", output: String = "out/world",
        tile: String = "{min_zoom: 0, max_zoom: 1}"
    ) -> String {
        """
          - name: \(name)
            input: \(input)
            georeference:
              bounds: [-180, -85, 180, 85]
            tile: \(tile)
            output: \(output)

        """
    }
}

/// Run a pipeline file with options; the outcomes by map, the log, and the error if any.
func runPipeline(_ path: String, _ options: RunOptions = RunOptions(jobs: 2)) throws -> (results: [MapResult], log: [String], error: Error?) {
    let pipeline = try Pipeline.load(path: path)
    let log = LoggedLines()
    let runner = PipelineRunner(pipeline: pipeline, options: options, log: { log.append($0) })
    do {
        let r = try runner.run()
        return (r, log.all, nil)
    } catch {
        return ([], log.all, error)
    }
}

/// Replace `old` with `new` in the pipeline file, run it again, and expect its composite
/// (`output`) rebuilt, not skipped as unchanged, with tiles other than those of digest `before`.
func expectRebuilt(
    _ file: String, replacing old: String, with new: String, output: String, before: String,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    try (try String(contentsOfFile: file, encoding: .utf8).replacingOccurrences(of: old, with: new))
        .write(toFile: file, atomically: true, encoding: .utf8)
    let r = try runPipeline(file)
    #expect(!r.log.contains { $0.hasPrefix("composite:  skipped") }, "\(r.log)", sourceLocation: sourceLocation)
    #expect(try TilesetDigest.of(output).digest != before, "\(old) → \(new)", sourceLocation: sourceLocation)
}
