// libFuzzer target: an Allmaps Georeference Annotation (JSON: GCP features, SVG selector mask,
// transformation). Joined to TegulaGeoreference by scripts/fuzz.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAllmaps(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    _ = try? AllmapsReader.parse(Data(bytes: data, count: count), source: "fuzz.json", gcpCRS: nil)
    return 0
}
