// libFuzzer target: a tile URL template (MapKit and extended placeholders) parsed and filled for
// a few tiles. Joined to TegulaOverlay (the template's files alone) by scripts/fuzz.
import TegulaGeometry

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzURLTemplate(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: count), as: UTF8.self)
    for set in [TileURLTemplate.PlaceholderSet.mapKit, .extended(subdomains: ["a", "b"]), .extended(subdomains: [])] {
        guard let t = try? TileURLTemplate(text, placeholders: set) else { continue }
        for p in [TileOverlayPath(x: 0, y: 0, z: 0), TileOverlayPath(x: 3, y: 5, z: 3, contentScaleFactor: 2),
                  TileOverlayPath(x: 1 << 20, y: 7, z: 21, contentScaleFactor: 3)] {
            _ = t.fill(p)
            _ = t.fill(p, origin: .bottomLeft)
        }
    }
    return 0
}
