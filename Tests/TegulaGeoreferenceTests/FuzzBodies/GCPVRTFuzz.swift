import TegulaGeoreference

// The gcp-vrt fuzz body (FuzzCase): a GDAL VRT holding a GCPList, read through GDAL as
// `tegula georef --gcps x.vrt` reads it (projection, axis mapping, GCP ids). Run by
// Fuzz/Targets/gcp-vrt.swift (public API: its own module, scripts/fuzz) and by FuzzReplayTests.
#if !TEGULA_FUZZ_TARGET
    import TegulaTestSupport
#endif

enum GCPVRTFuzz {
    static func run(_ bytes: [UInt8], _ c: inout FuzzCase) {
        let path = c.file("input.vrt", bytes)
        _ = c.attempt { try GCPReader.read(path: path) }
    }
}
