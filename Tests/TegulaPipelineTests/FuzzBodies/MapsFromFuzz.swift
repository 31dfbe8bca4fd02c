// The maps-from fuzz body (FuzzCase): a collection's CSV sheet list (`maps_from: sheets.csv`),
// read by the pipeline loader with `map_defaults` merged into every row; the folder holds a scan
// and a GCP file, so rows naming them get past the existence checks. Run by
// Fuzz/Targets/maps-from.swift (joined to TegulaPipeline, its loader files, by scripts/fuzz) and
// by FuzzReplayTests.
#if !TEGULA_FUZZ_TARGET
    import TegulaTestSupport
    @testable import TegulaPipeline
#endif

enum MapsFromFuzz {
    static let pipeline = Array("version: 1\nmap_defaults:\n  output: out/{name}\nmaps_from: sheets.csv\n".utf8)

    static func run(_ bytes: [UInt8], _ c: inout FuzzCase) {
        c.placeEmptyFiles(["scan.tif", "scan.points"])
        let path = c.file("p.yml", pipeline)
        _ = c.file("sheets.csv", bytes)
        _ = c.attempt { try Pipeline.load(path: path) }
    }
}
