// libFuzzer target: a whole PMTiles file, opened as the server opens one (header, root
// directory, metadata), then every tile of zooms 0–4 looked up and every entry walked (leaves,
// runs, under a budget of 65,536 tiles), as `--resume` does. Joined to TegulaBundle by scripts/fuzz.
import Foundation
import TegulaGeometry

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPMTiles(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let path = "/dev/shm/tegula-fuzz-\(getpid()).pmtiles"
    _ = FileManager.default.createFile(atPath: path, contents: Data(bytes: data, count: count))
    defer { unlink(path) }
    guard let reader = try? PMTilesReader(path: path) else { return 0 }
    for z in 0...4 {
        for x in 0..<(1 << z) { for y in 0..<(1 << z) { _ = try? reader.tile(Tile(x: x, y: y, z: z)) } }
    }
    _ = try? reader.allTileIDs(limit: 1 << 16)
    _ = try? reader.allTiles(limit: 1 << 16)
    return 0
}
