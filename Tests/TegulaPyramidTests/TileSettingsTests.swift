import TegulaGeometry
import TegulaPyramid
import TegulaTileset
import Testing

/// The tile stage's settings checked once, whichever front end made them: the zooms asked for,
/// the tile size and scale (worded for a pipeline's keys and for tegula tile's options), and the
/// encoding's checks in the order both front ends ran them.
struct TileSettingsTests {
    @Test func aZoomRequestTakesEitherEndAndRefusesCrossedOrOutOfGridEnds() {
        #expect(ZoomRequest(min: 3, max: nil)?.description == "3-auto")
        #expect(ZoomRequest(min: nil, max: nil) == .auto)
        #expect(ZoomRequest(min: 8, max: 2) == nil)
        #expect(ZoomRequest(min: -1, max: 4) == nil)
        #expect(ZoomRequest(min: 0, max: WebMercator.maxZoom + 1) == nil)
        #expect(ZoomRequest(.zooms(ZoomRange(min: 2, max: 6)!)) == ZoomRequest(min: 2, max: 6))
        #expect(ZoomRequest(.auto) == .auto)
    }

    @Test func theWarpZoomFillsOnlyAMissingMax() {
        #expect(ZoomRequest(min: 1, max: nil)!.withDefaultMax(5) == ZoomRequest(min: 1, max: 5))
        #expect(ZoomRequest(min: 1, max: 3)!.withDefaultMax(5) == ZoomRequest(min: 1, max: 3))
        #expect(ZoomRequest.auto.withDefaultMax(nil) == .auto)
    }

    @Test func aTileSizeOrScaleThatIsNoneIsRefusedInBothWordings() throws {
        let size = try #require(throws: TileSettingsError.self) { try TileSettings(tileSize: 300) }
        #expect(size.reason == .tileSize(300))
        #expect("\(size)" == "tile_size 300: expected 256 or 512")
        #expect(size.commandLine == "--tile-size must be 256 or 512, not 300")
        let scale = try #require(throws: TileSettingsError.self) { try TileSettings(scale: 3) }
        #expect("\(scale)" == "scale 3: expected 1 or 2")
        #expect(scale.commandLine == "--scale must be 1 or 2, not 3")
    }

    @Test func theTileSizeIsCheckedBeforeTheEncoding() throws {
        let error = try #require(throws: TileSettingsError.self) { try TileSettings(tileSize: 300, quality: 0) }
        #expect(error.reason == .tileSize(300))
        let quality = try #require(throws: TileFormat.OptionError.self) { try TileSettings(format: .png, quality: 50) }
        #expect(quality.reason == .qualityNotTaken)
    }

    @Test func theDefaultsAreTheInitializersDefaults() throws {
        let s = try TileSettings()
        #expect(s == .defaults)
        #expect(s.zooms == .auto && s.tileSize == 256 && s.scale == 1 && s.layout == .topLeft && s.tilePixels == 256)
        #expect(s.encoding == .png && s.encoding.format == .png && s.encoding.quality == nil)
    }
}
