// libFuzzer target: a QGIS .points file (`#CRS:` line, header, negated rows, enable, names).
// Calls TegulaGeoreference's public API (scripts/fuzz).
import TegulaGeoreference

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGCPPoints(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: count), as: UTF8.self)
    _ = try? GCPReader.parsePoints(text, source: "fuzz.points")
    return 0
}
