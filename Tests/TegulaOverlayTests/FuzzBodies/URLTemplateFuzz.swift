import TegulaGeometry

// The url-template fuzz body (FuzzCase): a tile URL template (MapKit and extended placeholders)
// parsed and filled for a few tiles; zoom 0 has one row, so both tile origins must fill the same
// URL there. Run by Fuzz/Targets/url-template.swift (joined to TegulaOverlay, the template's files
// alone, by scripts/fuzz) and by FuzzReplayTests.
#if !TEGULA_FUZZ_TARGET
    import TegulaOverlay
    import TegulaTestSupport
#endif

enum URLTemplateFuzz {
    static func run(_ bytes: [UInt8], _ c: inout FuzzCase) {
        let text = String(decoding: bytes, as: UTF8.self)
        for set in [TileURLTemplate.PlaceholderSet.mapKit, .extended(subdomains: ["a", "b"]), .extended(subdomains: [])] {
            guard let t = c.attempt({ try TileURLTemplate(text, placeholders: set) }) else { continue }
            let top = TileOverlayPath(x: 0, y: 0, z: 0)
            c.check(t.fill(top) == t.fill(top, origin: .bottomLeft), "zoom 0 has one row, so both origins fill the same URL")
            for p in [
                TileOverlayPath(x: 0, y: 0, z: 0), TileOverlayPath(x: 3, y: 5, z: 3, contentScaleFactor: 2),
                TileOverlayPath(x: 1 << 20, y: 7, z: 21, contentScaleFactor: 3),
            ] {
                _ = t.fill(p)
                _ = t.fill(p, origin: .bottomLeft)
            }
        }
    }
}
