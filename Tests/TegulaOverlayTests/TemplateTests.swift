import Foundation
import TegulaGeometry
import Testing

@testable import TegulaOverlay

/// Template substitution: MapKit's four placeholders, the flipped origin, scale 2, the extended
/// set, and unknown placeholders caught by validation and at first use.
struct TemplateTests {
    /// The canonical example tile of the docs (mercantile): z10/486/332, quadkey 0313102310.
    static let tile = Tile(x: 486, y: 332, z: 10)

    @Test func fillsXYZAndScale() throws {
        let overlay = TileOverlay(urlTemplate: "https://tiles.example.org/{z}/{x}/{y}@{scale}x.png")
        try overlay.validate()
        let path = overlay.path(for: Self.tile)
        #expect(path == TileOverlayPath(x: 486, y: 332, z: 10, contentScaleFactor: 1))
        #expect(overlay.url(forTilePath: path).absoluteString == "https://tiles.example.org/10/486/332@1x.png")
    }

    @Test func scaleTwoPrintsWithoutDecimals() throws {
        let overlay = TileOverlay(urlTemplate: "https://t.example/{z}/{x}/{y}@{scale}x.png")
        try overlay.validate()
        let path = overlay.path(for: Self.tile, contentScaleFactor: 2)
        #expect(overlay.url(forTilePath: path).absoluteString == "https://t.example/10/486/332@2x.png")
        #expect(TileURLTemplate.format(scale: 2.0) == "2")
        #expect(TileURLTemplate.format(scale: 1.5) == "1.5")
    }

    @Test func flippedOverlayCarriesTMSRows() throws {
        let overlay = TileOverlay(urlTemplate: "file:///tiles/{z}/{x}/{y}.png")
        try overlay.validate()
        overlay.isGeometryFlipped = true
        let path = overlay.path(for: Self.tile)
        #expect(path.y == 1023 - 332)
        #expect(overlay.url(forTilePath: path).absoluteString == "file:///tiles/10/486/691.png")
        #expect(overlay.tile(for: path) == Self.tile)
        // The map rect is the XYZ tile's, whatever the numbering.
        #expect(overlay.mapRect(for: path) == MapRect(tile: Self.tile))
    }

    @Test func plainPathTemplateBecomesFileURL() throws {
        let overlay = TileOverlay(urlTemplate: "/srv/my tiles/{z}/{x}/{y}.png")
        try overlay.validate()
        let url = overlay.url(forTilePath: TileOverlayPath(x: 1, y: 2, z: 3))
        #expect(url.isFileURL)
        #expect(url.path == "/srv/my tiles/3/1/2.png")
    }

    @Test func extendedPlaceholders() throws {
        let overlay = TileOverlay(
            urlTemplate: "https://{s}.t.example/{z}/{x}/{-y}{r}.png?q={q}&k={quadkey}",
            placeholders: .extended(subdomains: ["a", "b", "c"]))
        try overlay.validate()
        let path = overlay.path(for: Self.tile, contentScaleFactor: 2)
        // (486 + 332) mod 3 = 2 → "c"; {-y} = 1023 − 332.
        #expect(
            overlay.url(forTilePath: path).absoluteString
                == "https://c.t.example/10/486/691@2x.png?q=0313102310&k=0313102310")
        let oneX = overlay.url(forTilePath: overlay.path(for: Self.tile)).absoluteString
        #expect(oneX.contains("/691.png"))
    }

    @Test func bboxPlaceholderGivesTheTileBoxInMetres() throws {
        let overlay = TileOverlay(
            urlTemplate: "https://wms.example/?bbox={bbox-epsg-3857}",
            placeholders: .extended(subdomains: []))
        try overlay.validate()
        let url = overlay.url(forTilePath: TileOverlayPath(x: 0, y: 0, z: 1)).absoluteString
        let h = WebMercator.halfCircumference
        #expect(url == "https://wms.example/?bbox=\(-h),0.0,0.0,\(h)")
    }

    /// As `MKTileOverlay(urlTemplate:)`, the initializer does not throw; a bad template is caught
    /// by `validate()` (and at first load, below) instead of reaching a server.
    @Test func unknownPlaceholderCaughtByValidation() throws {
        #expect(
            throws: TileOverlayError.unknownPlaceholder(
                name: "quadkey", template: "https://x/{quadkey}.png", offset: 10, allowed: ["x", "y", "z", "scale"])
        ) {
            try TileOverlay(urlTemplate: "https://x/{quadkey}.png").validate()
        }
        #expect(throws: TileOverlayError.self) {
            try TileOverlay(urlTemplate: "https://x/{zoom}/{x}/{y}.png", placeholders: .extended(subdomains: ["a"])).validate()
        }
        #expect(throws: TileOverlayError.unclosedPlaceholder(template: "https://x/{z/{x}", offset: 10)) {
            try TileOverlay(urlTemplate: "https://x/{z/{x}").validate()
        }
        #expect(throws: TileOverlayError.unclosedPlaceholder(template: "https://x/{z/{x}", offset: 10)) {
            _ = try TileURLTemplate("https://x/{z/{x}")
        }
        #expect(throws: TileOverlayError.missingSubdomains(template: "https://{s}.x/{z}")) {
            _ = try TileURLTemplate("https://{s}.x/{z}", placeholders: .extended(subdomains: []))
        }
        // Good templates and no template pass.
        try TileOverlay(urlTemplate: "https://x/{z}/{x}/{y}@{scale}x.png").validate()
        try TileOverlay(urlTemplate: nil).validate()
    }

    /// A bad template is kept as written (MapKit's `urlTemplate`), gives no URL, and its error is
    /// what the first fetch throws: nothing is requested from anywhere.
    @Test func badTemplateFailsAtFirstUseWithItsOwnError() async {
        let overlay = TileOverlay(urlTemplate: "https://x/{quadkey}.png")
        #expect(overlay.urlTemplate == "https://x/{quadkey}.png" && overlay.template == nil)
        let path = TileOverlayPath(x: 0, y: 0, z: 1)
        #expect(overlay.url(forTilePath: path) == TileOverlay.noTemplateURL)
        let expected = TileOverlayError.unknownPlaceholder(
            name: "quadkey", template: "https://x/{quadkey}.png", offset: 10, allowed: ["x", "y", "z", "scale"])
        await #expect(throws: expected) { _ = try await overlay.fetchTile(at: path) }
        await #expect(throws: expected) { _ = try await overlay.loadTile(at: path) }
        // Failures are not cached: the second fetch fails the same way.
        await #expect(throws: expected) { _ = try await overlay.fetchTile(at: path) }
    }

    @Test func errorMessagesSayWhatWhereAndWhatWouldBeRight() {
        let message = String(
            describing: TileOverlayError.unknownPlaceholder(
                name: "zoom", template: "https://x/{zoom}", offset: 10, allowed: ["x", "y", "z", "scale"]))
        #expect(message.contains("{zoom}"))
        #expect(message.contains("character 10"))
        #expect(message.contains("{z}"))
    }

    @Test func mapKitDefaults() throws {
        let overlay = TileOverlay(urlTemplate: nil)
        #expect(overlay.urlTemplate == nil)
        #expect(overlay.tileSize == TileSize(width: 256, height: 256))
        #expect(!overlay.isGeometryFlipped)
        #expect(overlay.minimumZ == 0 && overlay.maximumZ == 21)
        #expect(!overlay.canReplaceMapContent)
        #expect(overlay.boundingMapRect == .world)
        #expect(abs(overlay.coordinate.longitude) < 1e-9 && abs(overlay.coordinate.latitude) < 1e-9)
        #expect(overlay.url(forTilePath: TileOverlayPath(x: 0, y: 0, z: 0)) == TileOverlay.noTemplateURL)
    }
}
