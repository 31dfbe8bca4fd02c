import Foundation
import TegulaCodec
import TegulaGeometry
import TegulaSupport
import TegulaTestSupport
import TegulaTileset
import TegulaWarp
import Testing

@testable import TegulaPyramid

/// The pyramid in every format against its own lossless PNG run: `auto` puts JPEG exactly on the
/// opaque tiles (and the identical PNG elsewhere), lossless WebP has the PNG's pixels, the lossy
/// formats stay above a PSNR floor, PNG8 is palette PNG.
struct TileFormatPyramidTests {
    static func run(
        _ source: WarpSource, _ dir: URL, _ format: TileFormat, quality: Int? = nil,
        autoLossy: AutoLossy = .default, webpEffort: WebPEffort = .default, zooms: ZoomRequest = ZoomRequest(min: 5, max: 7)!
    ) throws -> String {
        let out = dir.appendingPathComponent("\(format.name)-\(quality ?? 0)-\(autoLossy.name)-e\(webpEffort)-z\(zooms.min)").path
        var job = TileJob(source: source, output: out, name: "t")
        job.settings = try TileSettings(
            zooms: zooms, format: format, quality: quality,
            autoLossy: format == .auto ? autoLossy : nil,
            webpEffort: format == .webp && quality == nil ? webpEffort : nil)
        _ = try job.run()
        return out
    }

    /// PSNR of RGB over pixels opaque in the reference.
    static func psnr(_ ref: RGBAImage, _ img: RGBAImage) -> (se: Double, n: Int) {
        var se = 0.0, n = 0
        for i in 0..<(ref.width * ref.height) where ref.pixels[i * 4 + 3] == 255 {
            for c in 0..<3 { let d = Double(ref.pixels[i * 4 + c]) - Double(img.pixels[i * 4 + c]); se += d * d }
            n += 3
        }
        return (se, n)
    }

    @Test func everyFormatAgainstLosslessPNG() throws {
        let dir = try TemporaryFolder.make("pyr-formats")
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = try PyramidFixtures.source(try PyramidFixtures.geotiff(in: dir))
        let png = try PyramidFixtures.tiles(in: try Self.run(source, dir, .png))
        #expect(png.count > 20)

        // auto: JPEG exactly where the PNG run wrote RGB (opaque), the same PNG bytes elsewhere.
        let auto = try Self.run(source, dir, .auto)
        let autoJPEG = try PyramidFixtures.tiles(in: auto, ext: "jpg"), autoPNG = try PyramidFixtures.tiles(in: auto)
        #expect(Set(autoJPEG.keys).isDisjoint(with: autoPNG.keys))
        #expect(Set(autoJPEG.keys).union(autoPNG.keys) == Set(png.keys))
        var opaque = 0
        var se = 0.0, n = 0
        for (key, data) in png {
            if data[25] == 2 {  // RGB PNG: an opaque tile
                opaque += 1
                let jpeg = try #require(autoJPEG[key], "\(key) is opaque: auto must write JPEG")
                let e = Self.psnr(try PNGDecoder.decode([UInt8](data)), try JPEGDecoder.decode([UInt8](jpeg)))
                se += e.se; n += e.n
            } else {
                #expect(autoPNG[key] == data, "\(key) has transparency: auto must write the lossless PNG")
            }
        }
        #expect(opaque > 0 && opaque < png.count, "the fixture has both kinds of tile")
        let autoPSNR = 10 * log10(255 * 255 / (se / Double(n)))
        // Measured 35.35 dB (libjpeg-turbo, quality 85); the floor is that less 0.5 dB.
        #expect(autoPSNR >= 34.85, "auto's JPEG tiles: \(autoPSNR) dB")

        // Lossless WebP decodes to the PNG's pixels wherever a pixel is not fully transparent.
        Self.expectLossless(try PyramidFixtures.tiles(in: try Self.run(source, dir, .webp), ext: "webp"), png: png)

        // Lossy WebP and JPEG stay above a floor, each its measured PSNR less 0.5 dB (measured
        // 34.20 dB for WebP q80, 34.01 dB for JPEG q85); PNG8 tiles are palette PNGs with the same set.
        for (format, quality, ext, floor) in [(TileFormat.webp, 80, "webp", 33.7), (.jpeg, 85, "jpg", 33.5)] {
            let tiles = try PyramidFixtures.tiles(in: try Self.run(source, dir, format, quality: quality), ext: ext)
            #expect(Set(tiles.keys) == Set(png.keys))
            var se = 0.0, n = 0
            for (key, data) in tiles {
                let e = Self.psnr(try PNGDecoder.decode([UInt8](png[key]!)), try TileDecoder.decode([UInt8](data)))
                se += e.se; n += e.n
            }
            let p = 10 * log10(255 * 255 / (se / Double(n)))
            #expect(p >= floor, "\(format.name) q\(quality): \(p) dB")
        }
        // PNG8 (no dithering, quality cap 85): palette PNGs at 39.56 dB measured, floor 0.5 dB below.
        let png8 = try PyramidFixtures.tiles(in: try Self.run(source, dir, .png8))
        #expect(Set(png8.keys) == Set(png.keys))
        #expect(png8.values.allSatisfy { $0[25] == 3 })
        var se8 = 0.0, n8 = 0
        for (key, data) in png8 {
            let e = Self.psnr(try PNGDecoder.decode([UInt8](png[key]!)), try PNGDecoder.decode([UInt8](data)))
            se8 += e.se; n8 += e.n
        }
        let p8 = 10 * log10(255 * 255 / (se8 / Double(n8)))
        #expect(p8 >= 39.05, "png8: \(p8) dB")
    }

    /// Lossless WebP tiles against the PNG run's: the same tiles, alpha equal everywhere and
    /// the colour wherever alpha > 0.
    static func expectLossless(_ webp: [String: Data], png: [String: Data], _ label: String = "") {
        #expect(Set(webp.keys) == Set(png.keys))
        for (key, data) in webp {
            guard let a = try? PNGDecoder.decode([UInt8](png[key]!)), let b = try? WebPDecoder.decode([UInt8](data)) else {
                Issue.record("\(label) \(key) does not decode"); continue
            }
            var same = true
            for i in 0..<(a.width * a.height) {
                let alpha: UInt8 = a.pixels[i * 4 + 3]
                if alpha != b.pixels[i * 4 + 3] { same = false; break }
                if alpha == 0 { continue }
                let rgbA: [UInt8] = Array(a.pixels[i * 4..<i * 4 + 3]), rgbB: [UInt8] = Array(b.pixels[i * 4..<i * 4 + 3])
                if rgbA != rgbB { same = false; break }
            }
            #expect(same, "lossless WebP \(label) \(key) differs from the PNG")
        }
    }

    /// `webpEffort` reaches every lossless WebP tile of a pyramid: at efforts 0 and 9 the tiles
    /// keep the PNG run's pixels, and effort 9 writes fewer bytes than effort 0.
    @Test func webpEffortChangesBytesNotPixels() throws {
        let dir = try TemporaryFolder.make("pyr-webp-effort")
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = try PyramidFixtures.source(try PyramidFixtures.geotiff(in: dir))
        // Zooms 5-6, a quarter of the tiles of 5-7: effort 9 is the slowest setting there is.
        let zooms = ZoomRequest(min: 5, max: 6)!
        let png = try PyramidFixtures.tiles(in: try Self.run(source, dir, .png, zooms: zooms))
        var bytes: [Int] = []
        for effort in [WebPEffort(0)!, WebPEffort(9)!] {
            let webp = try PyramidFixtures.tiles(in: try Self.run(source, dir, .webp, webpEffort: effort, zooms: zooms), ext: "webp")
            Self.expectLossless(webp, png: png, "effort \(effort)")
            bytes.append(webp.values.reduce(0) { $0 + $1.count })
        }
        #expect(bytes[1] < bytes[0], "effort 9: \(bytes[1]) bytes, effort 0: \(bytes[0])")
    }

    /// The default effort (chosen on the benchmark scan: ``WebPEffort/default``) keeps every
    /// visible pixel of the PNG run, alpha everywhere and the colour wherever alpha > 0, and
    /// writes fewer bytes than effort 1, the default it replaced: what choosing it relied on.
    @Test func defaultWebPEffortKeepsThePNGsPixelsInFewerBytesThanEffortOne() throws {
        let dir = try TemporaryFolder.make("pyr-webp-default")
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = try PyramidFixtures.source(try PyramidFixtures.geotiff(in: dir))
        let png = try PyramidFixtures.tiles(in: try Self.run(source, dir, .png))
        let chosen = try PyramidFixtures.tiles(in: try Self.run(source, dir, .webp), ext: "webp")
        Self.expectLossless(chosen, png: png, "default effort \(WebPEffort.default)")
        let one = try PyramidFixtures.tiles(in: try Self.run(source, dir, .webp, webpEffort: WebPEffort(1)!), ext: "webp")
        let bytes = (chosen: chosen.values.reduce(0) { $0 + $1.count }, one: one.values.reduce(0) { $0 + $1.count })
        #expect(bytes.chosen < bytes.one, "default effort \(WebPEffort.default): \(bytes.chosen) bytes, effort 1: \(bytes.one)")
    }

    /// `auto --auto-lossy webp`: lossy WebP exactly on the opaque tiles (no JPEG at all), the
    /// lossless run's PNG bytes on the others, above the same PSNR floor; a quality given
    /// reaches the WebP tiles (fewer bytes at 50 than at the default 85).
    @Test func autoLossyWebPPutsWebPExactlyOnOpaqueTiles() throws {
        let dir = try TemporaryFolder.make("pyr-auto-webp")
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = try PyramidFixtures.source(try PyramidFixtures.geotiff(in: dir))
        let png = try PyramidFixtures.tiles(in: try Self.run(source, dir, .png))
        let auto = try Self.run(source, dir, .auto, autoLossy: .webp)
        let webp = try PyramidFixtures.tiles(in: auto, ext: "webp"), autoPNG = try PyramidFixtures.tiles(in: auto)
        #expect(try PyramidFixtures.tiles(in: auto, ext: "jpg").isEmpty)
        #expect(Set(webp.keys).union(autoPNG.keys) == Set(png.keys))
        var se = 0.0, n = 0, opaque = 0
        for (key, data) in png {
            if data[25] == 2 {
                opaque += 1
                let tile = try #require(webp[key], "\(key) is opaque: auto --auto-lossy webp must write WebP")
                #expect(ImageSignature(of: [UInt8](tile)) == .webp)
                let e = Self.psnr(try PNGDecoder.decode([UInt8](data)), try WebPDecoder.decode([UInt8](tile)))
                se += e.se; n += e.n
            } else {
                #expect(webp[key] == nil && autoPNG[key] == data, "\(key) has transparency: the lossless PNG")
            }
        }
        #expect(opaque > 0 && opaque < png.count)
        let p = 10 * log10(255 * 255 / (se / Double(n)))
        #expect(p >= 35.05, "auto's WebP tiles: \(p) dB")  // measured 35.58 dB (WebP q85), less 0.5 dB
        let low = try PyramidFixtures.tiles(in: try Self.run(source, dir, .auto, quality: 50, autoLossy: .webp), ext: "webp")
        #expect(Set(low.keys) == Set(webp.keys))
        #expect(low.values.reduce(0) { $0 + $1.count } < webp.values.reduce(0) { $0 + $1.count })
    }
}
