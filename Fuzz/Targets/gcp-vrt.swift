// libFuzzer target: a GDAL VRT holding a GCPList, read through GDAL as `tegula georef --gcps
// x.vrt` reads it (projection, axis mapping, GCP ids).
import Foundation
import TegulaGeoreference

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGCPVRT(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let path = "/dev/shm/tegula-fuzz-\(getpid()).vrt"
    _ = FileManager.default.createFile(atPath: path, contents: Data(bytes: data, count: count))
    defer { unlink(path) }
    _ = try? GCPReader.read(path: path)
    return 0
}
