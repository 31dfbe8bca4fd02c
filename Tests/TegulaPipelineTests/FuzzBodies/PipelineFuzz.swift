// The pipeline fuzz body (FuzzCase): a pipeline file, loaded as `tegula run` loads it (YAML
// parse, alias budget, strict decoding, map_defaults merged into every map, paths and outputs
// checked). The folder holds a scan and a GCP file, so entries naming `scan.tif` and
// `scan.points` get past the existence checks. Run by Fuzz/Targets/pipeline.swift (joined to
// TegulaPipeline, its loader files, by scripts/fuzz) and by FuzzReplayTests.
#if !TEGULA_FUZZ_TARGET
    import TegulaTestSupport
    @testable import TegulaPipeline
#endif

enum PipelineFuzz {
    static func run(_ bytes: [UInt8], _ c: inout FuzzCase) {
        c.placeEmptyFiles(["scan.tif", "scan.points"])
        let path = c.file("p.yml", bytes)
        _ = c.attempt { try Pipeline.load(path: path) }
    }
}
