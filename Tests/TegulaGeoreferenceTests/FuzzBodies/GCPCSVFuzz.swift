import TegulaGDAL
import TegulaGeoreference

// The gcp-csv fuzz body (FuzzCase): a GCP CSV (`x,y,lon,lat[,name]`, or `x,y,X,Y` with a CRS
// given). Run by Fuzz/Targets/gcp-csv.swift (public API: its own module, scripts/fuzz) and by
// FuzzReplayTests.
#if !TEGULA_FUZZ_TARGET
    import TegulaTestSupport
#endif

enum GCPCSVFuzz {
    /// The CRS given with `--gcp-crs` for the second reading.
    static let crs = try! CRS("EPSG:28992")

    static func run(_ bytes: [UInt8], _ c: inout FuzzCase) {
        let text = String(decoding: bytes, as: UTF8.self)
        _ = c.attempt { try GCPReader.parseCSV(text, source: "fuzz.csv") }
        _ = c.attempt { try GCPReader.parseCSV(text, source: "fuzz.csv", gcpCRS: crs) }
    }
}
