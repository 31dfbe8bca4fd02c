import TegulaGeoreference

// The gcp-points fuzz body (FuzzCase): a QGIS .points file (`#CRS:` line, header, negated rows,
// enable, names). Run by Fuzz/Targets/gcp-points.swift (public API: its own module, scripts/fuzz)
// and by FuzzReplayTests.
#if !TEGULA_FUZZ_TARGET
    import TegulaTestSupport
#endif

enum GCPPointsFuzz {
    static func run(_ bytes: [UInt8], _ c: inout FuzzCase) {
        let text = String(decoding: bytes, as: UTF8.self)
        _ = c.attempt { try GCPReader.parsePoints(text, source: "fuzz.points") }
    }
}
