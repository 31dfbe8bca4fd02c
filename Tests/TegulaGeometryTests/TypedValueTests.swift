import Foundation
import TegulaGeometry
import Testing

/// Zoom ranges and pixel windows: the one parser and the one grid computation.
struct TypedValueTests {
    @Test func zoomRangesParseOnceWithTheGridsLimits() throws {
        #expect(ZoomRange(parsing: "2-8") == ZoomRange(min: 2, max: 8))
        #expect(ZoomRange(parsing: "6") == ZoomRange(min: 6, max: 6))
        #expect(ZoomRange(parsing: " 0 - 30 ")?.levels == 0...30)
        for bad in ["8-2", "-1-3", "0-31", "a-b", "1-2-3", "", "auto"] {
            #expect(ZoomRange(parsing: bad) == nil, "\(bad)")
        }
        #expect(ZoomRange(min: 0, max: WebMercator.maxZoom + 1) == nil)
        // Codable: "MIN-MAX" or a bare number, written back as "MIN-MAX".
        let decoded = try JSONDecoder().decode([ZoomRange].self, from: Data(#"["3-5", 7]"#.utf8))
        #expect(decoded == [ZoomRange(min: 3, max: 5)!, ZoomRange(min: 7, max: 7)!])
        #expect(String(decoding: try JSONEncoder().encode(decoded), as: UTF8.self) == #"["3-5","7-7"]"#)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([ZoomRange].self, from: Data(#"["9-4"]"#.utf8)) }
    }

    @Test func pixelWindowsAgreeWithTilesOnTileEdges() throws {
        // A box that is exactly one tile at zoom z is that tile's 256 × 256 pixels at zoom z.
        for t in [Tile(x: 0, y: 0, z: 0), Tile(x: 486, y: 332, z: 10), Tile(x: 3, y: 5, z: 3)] {
            let w = try #require(PixelWindow(covering: t.projectedBounds, zoom: t.z))
            // Edges round outwards with no tolerance (as the warp has always cut its window): a
            // bottom edge computed in metres may reach a hair into the next row.
            #expect(w.column == t.x * 256 && w.row == t.y * 256 && w.width == 256 && (256...257).contains(w.height), "\(t): \(w)")
            #expect(abs(w.left - t.projectedBounds.left) < 1e-6 && abs(w.top - t.projectedBounds.top) < 1e-6)
            // One zoom deeper, the same box is 512 pixels a side.
            let deeper = try #require(PixelWindow(covering: t.projectedBounds, zoom: t.z + 1))
            #expect(deeper.width == 512 && (512...513).contains(deeper.height))
        }
        // Edges round outwards: a box a tenth of a pixel wide still gets one pixel.
        let res = WebMercator.resolution(zoom: 5)
        let thin = ProjectedBounds(left: 0.45 * res, bottom: -0.55 * res, right: 0.55 * res, top: -0.45 * res)
        let w = try #require(PixelWindow(covering: thin, zoom: 5))
        #expect(w.width == 1 && w.height == 1)
        #expect(abs(WebMercator.tileExtent(zoom: 3) - Tile(x: 0, y: 0, z: 3).projectedBounds.width) < 1e-6)
    }
}
