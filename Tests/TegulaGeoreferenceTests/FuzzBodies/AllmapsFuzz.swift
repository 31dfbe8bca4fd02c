import TegulaGeoreference

// The allmaps fuzz body (FuzzCase): an Allmaps Georeference Annotation (JSON: GCP features, SVG
// selector mask, transformation), read through GCPReader as `tegula georef --gcps x.json` reads
// it. Run by Fuzz/Targets/allmaps.swift (public API: its own module, scripts/fuzz) and by
// FuzzReplayTests.
#if !TEGULA_FUZZ_TARGET
    import TegulaTestSupport
#endif

enum AllmapsFuzz {
    static func run(_ bytes: [UInt8], _ c: inout FuzzCase) {
        let path = c.file("input.json", bytes)
        _ = c.attempt { try GCPReader.read(path: path) }
    }
}
