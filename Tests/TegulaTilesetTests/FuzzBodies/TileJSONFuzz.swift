// The tilejson fuzz body (FuzzCase): TileJSON / metadata JSON (a folder's tiles.json, PMTiles
// metadata) read into TilesetMetadata and written back as TileJSON. Run by
// Fuzz/Targets/tilejson.swift (joined to TegulaTileset by scripts/fuzz) and by FuzzReplayTests.
#if !TEGULA_FUZZ_TARGET
    @testable import TegulaTileset
    import TegulaTestSupport
#endif

enum TileJSONFuzz {
    static func run(_ bytes: [UInt8], _ c: inout FuzzCase) {
        guard let value = c.attempt({ try JSONValue.parse(bytes) }) else { return }
        _ = value.serialized()
        guard let o = value.objectValue, let m = c.attempt({ try TilesetMetadata(jsonObject: o, source: "fuzz") }) else { return }
        c.check(!m.tileJSON(tiles: ["http://localhost/{z}/{x}/{y}.png"]).isEmpty, "metadata that reads writes a TileJSON")
    }
}
