import Foundation
import TegulaCodec
import TegulaGeometry
import TegulaOnDemand
import TegulaPyramid
import TegulaServer
import TegulaTestSupport
import Testing

/// A pipeline whose composite matches tones (`composite.tone: match`), served on demand: each
/// sheet's tiles carry the correction `tegula run` solves for it, so sheets of the generated
/// ``TestSeries`` (±4 levels each) come out with the source's own levels.
@Suite struct OnDemandToneTests {
    @Test func aSheetServedOnDemandCarriesTheCompositesToneCorrection() throws {
        let folder = try TemporaryFolder.make("ondemand-tone").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let series = try TestSeries(in: folder)
        let source = try series.source().rgb
        func pipeline(_ name: String, tone: String) throws -> String {
            let path = folder + "/\(name).yml"
            try
                ("version: 1\nwork: .tegula/\(name)\nmaps:\n" + TestSeries.allMaps
                + "composite:\n  output: out/\(name).pmtiles\n  tile: {min_zoom: 7, max_zoom: \(TestSeries.zoom)}\n" + tone)
                .write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        let f = try OnDemandFixtures()
        let inputs = f.inputs()
        let toned = try #require(try inputs.sources(for: try pipeline("toned", tone: "  tone: match\n")).first { $0.id == "sheet-0-0" })
        let plain = try #require(try inputs.sources(for: try pipeline("plain", tone: "")).first { $0.id == "sheet-0-0" })
        let tone = try #require(toned.renderer.tone)
        #expect(plain.renderer.tone == nil)
        #expect(toned.version != plain.version)
        // The tile holding the series' top-left corner at its native zoom: sheet-0-0's mask
        // covers source pixels 0…111 of it, the tile's pixels 56…167.
        let t = Tile(x: TestSeries.originX / 256, y: TestSeries.originY / 256, z: TestSeries.zoom)
        let a = try TileDecoder.decode(try #require(try toned.renderer.render(t))).rgba.pixels
        var b = try plain.renderer.pixels(t)
        // The oracle: the plain sheet's tile with the correction applied, byte for byte.
        b.withUnsafeMutableBufferPointer { tone.apply(to: $0.baseAddress!, count: $0.count / 4) }
        #expect(a == b)
        // And the sheet's +4 levels are gone: every pixel of its mask within 1 level of the source.
        var worst = 0, before = 0
        let raw = try plain.renderer.pixels(t)
        let off = TestSeries.originX % 256
        for y in 0..<TestSeries.mapSide {
            for x in 0..<TestSeries.mapSide {
                let p = ((y + off) * 256 + x + off) * 4
                #expect(a[p + 3] == 255)
                for c in 0..<3 {
                    let s = Int(source[(y * TestSeries.side + x) * 3 + c])
                    worst = max(worst, abs(Int(a[p + c]) - s))
                    before = max(before, abs(Int(raw[p + c]) - s))
                }
            }
        }
        #expect(before == 4 && worst <= 1, "before \(before), after \(worst)")
    }
}
