import Testing
import TegulaOverlay
import TegulaTestSupport

/// Every seed and every input that ever crashed the URL-template fuzz target (scripts/fuzz),
/// replayed as Fuzz/Targets/url-template.swift runs it: parsed and filled, or refused.
struct FuzzReplayTests {
    @Test(arguments: try FuzzInputs.names("url-template"))
    func urlTemplate(_ name: String) throws {
        let text = String(decoding: try FuzzInputs.bytes(name), as: UTF8.self)
        for set in [TileURLTemplate.PlaceholderSet.mapKit, .extended(subdomains: ["a", "b"]), .extended(subdomains: [])] {
            guard let t = try? TileURLTemplate(text, placeholders: set) else { continue }
            for p in [TileOverlayPath(x: 0, y: 0, z: 0), TileOverlayPath(x: 3, y: 5, z: 3, contentScaleFactor: 2),
                      TileOverlayPath(x: 1 << 20, y: 7, z: 21, contentScaleFactor: 3)] {
                _ = t.fill(p)
                _ = t.fill(p, origin: .bottomLeft)
            }
        }
    }
}
