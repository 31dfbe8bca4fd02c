// libFuzzer target: a whole MBTiles (SQLite) file opened as the server opens one, then tiles of
// zooms 0–3 read. Joined to TegulaBundle by scripts/fuzz.
import Foundation
import TegulaGeometry

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMBTiles(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let path = "/dev/shm/tegula-fuzz-\(getpid()).mbtiles"
    _ = FileManager.default.createFile(atPath: path, contents: Data(bytes: data, count: count))
    defer { unlink(path) }
    guard let reader = try? MBTilesReader(path: path) else { return 0 }
    for z in 0...3 {
        for x in 0..<(1 << z) { for y in 0..<(1 << z) { _ = try? reader.tile(Tile(x: x, y: y, z: z)) } }
    }
    _ = try? MBTilesReader.storedTiles(path)
    return 0
}
