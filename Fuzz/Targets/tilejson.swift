// libFuzzer target: TileJSON / metadata JSON (a folder's tiles.json, PMTiles metadata) read into
// TilesetMetadata and written back as TileJSON. Joined to TegulaBundle by scripts/fuzz.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTileJSON(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: count)
    guard let value = try? JSONValue.parse(bytes) else { return 0 }
    _ = value.serialized()
    guard let o = value.objectValue, let m = try? TilesetMetadata(jsonObject: o, source: "fuzz") else { return 0 }
    _ = m.tileJSON(tiles: ["http://localhost/{z}/{x}/{y}.png"])
    return 0
}
