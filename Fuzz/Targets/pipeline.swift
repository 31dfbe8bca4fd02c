// libFuzzer target: a pipeline file, loaded as `tegula run` loads it (YAML parse, alias budget,
// strict decoding, map_defaults merged into every map, paths and outputs checked). Joined to
// TegulaPipeline (its loader files, scripts/fuzz). The folder holds a scan and a GCP file, so
// entries naming `scan.tif` and `scan.points` get past the existence checks.
import Foundation

let fuzzPipelineFolder: String = {
    let d = "/dev/shm/tegula-fuzz-pipeline-\(getpid())"
    try? FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
    for f in ["scan.tif", "scan.points"] { _ = FileManager.default.createFile(atPath: d + "/" + f, contents: Data()) }
    return d
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPipeline(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let path = fuzzPipelineFolder + "/p.yml"
    _ = FileManager.default.createFile(atPath: path, contents: Data(bytes: data, count: count))
    _ = try? Pipeline.load(path: path)
    return 0
}
