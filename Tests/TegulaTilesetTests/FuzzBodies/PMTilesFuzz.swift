import TegulaGeometry

// The pmtiles fuzz body (FuzzCase): a whole PMTiles file, opened as the server opens one (header,
// root directory, metadata), then every tile of zooms 0–4 looked up and every entry walked
// (leaves, runs, under a budget of 65,536 tiles), as `--resume` does. Run by
// Fuzz/Targets/pmtiles.swift (joined to TegulaTileset by scripts/fuzz) and by FuzzReplayTests.
#if !TEGULA_FUZZ_TARGET
    @testable import TegulaTileset
    import TegulaTestSupport
#endif

enum PMTilesFuzz {
    static func run(_ bytes: [UInt8], _ c: inout FuzzCase) {
        let path = c.file("input.pmtiles", bytes)
        guard let reader = c.attempt({ try PMTilesReader(path: path) }) else { return }
        for z in 0...4 {
            for x in 0..<(1 << z) { for y in 0..<(1 << z) { _ = c.attempt { try reader.tile(Tile(x: x, y: y, z: z)) } } }
        }
        _ = c.attempt { try reader.allTileIDs(limit: 1 << 16) }
        _ = c.attempt { try reader.allTiles(limit: 1 << 16) }
    }
}
