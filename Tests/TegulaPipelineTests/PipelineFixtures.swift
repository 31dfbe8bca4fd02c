import Foundation
import TegulaGDAL
@testable import TegulaPipeline
import TegulaTestSupport

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

    /// A one-map pipeline of a generated plate carrée image at zooms 0–1.
    static func worldMap(name: String = "world", input: String = "world.tif", output: String = "out/world",
                         tile: String = "{min_zoom: 0, max_zoom: 1}") -> String {
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
