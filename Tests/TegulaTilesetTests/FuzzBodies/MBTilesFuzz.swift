import TegulaGeometry

// The mbtiles fuzz body (FuzzCase): a whole MBTiles (SQLite) file opened as the server opens one,
// then the tiles of zooms 0–3 read and the stored tiles listed. Run by Fuzz/Targets/mbtiles.swift
// (joined to TegulaTileset by scripts/fuzz) and by FuzzReplayTests.
#if !TEGULA_FUZZ_TARGET
    @testable import TegulaTileset
    import TegulaTestSupport
#endif

enum MBTilesFuzz {
    static func run(_ bytes: [UInt8], _ c: inout FuzzCase) {
        let path = c.file("input.mbtiles", bytes)
        guard let reader = c.attempt({ try MBTilesReader(path: path) }) else { return }
        for z in 0...3 {
            for x in 0..<(1 << z) { for y in 0..<(1 << z) { _ = c.attempt { try reader.tile(Tile(x: x, y: y, z: z)) } } }
        }
        _ = c.attempt { try MBTilesReader.storedTiles(path) }
    }
}
