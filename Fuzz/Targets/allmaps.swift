// libFuzzer target: an Allmaps Georeference Annotation (JSON: GCP features, SVG selector mask,
// transformation), read through GCPReader as `tegula georef --gcps x.json` reads it.
import Foundation
import TegulaGeoreference

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAllmaps(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let path = "/dev/shm/tegula-fuzz-\(getpid()).json"
    _ = FileManager.default.createFile(atPath: path, contents: Data(bytes: data, count: count))
    defer { unlink(path) }
    _ = try? GCPReader.read(path: path)
    return 0
}
