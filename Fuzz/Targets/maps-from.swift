// libFuzzer target: a collection's CSV sheet list (`maps_from: sheets.csv`), read by the pipeline
// loader with `map_defaults` merged into every row. Joined to TegulaPipeline (its loader files,
// scripts/fuzz). The folder holds a scan and a GCP file, so rows naming them get past the
// existence checks.
import Foundation

let fuzzSheetFolder: String = {
    let d = "/dev/shm/tegula-fuzz-maps-from-\(getpid())"
    try? FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
    for f in ["scan.tif", "scan.points"] { _ = FileManager.default.createFile(atPath: d + "/" + f, contents: Data()) }
    let pipeline = "version: 1\nmap_defaults:\n  output: out/{name}\nmaps_from: sheets.csv\n"
    _ = FileManager.default.createFile(atPath: d + "/p.yml", contents: Data(pipeline.utf8))
    return d
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMapsFrom(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    _ = FileManager.default.createFile(atPath: fuzzSheetFolder + "/sheets.csv", contents: Data(bytes: data, count: count))
    _ = try? Pipeline.load(path: fuzzSheetFolder + "/p.yml")
    return 0
}
