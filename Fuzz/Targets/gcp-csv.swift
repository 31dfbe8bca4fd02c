// libFuzzer target: a GCP CSV (`x,y,lon,lat[,name]` or `x,y,X,Y` with a CRS given).
// Calls TegulaGeoreference's public API (scripts/fuzz).
import TegulaGDAL
import TegulaGeoreference

let fuzzCSVCRS = try! CRS("EPSG:28992")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGCPCSV(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: count), as: UTF8.self)
    _ = try? GCPReader.parseCSV(text, source: "fuzz.csv")
    _ = try? GCPReader.parseCSV(text, source: "fuzz.csv", gcpCRS: fuzzCSVCRS)
    return 0
}
