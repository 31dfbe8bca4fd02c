import Foundation
import TegulaCodec
import TegulaGDAL
import TegulaSupport
import TegulaTestSupport
import Testing

/// JPEG, WebP and PNG8: what the encoders write the decoders read back, within a PSNR floor for
/// the lossy ones and exactly for lossless WebP; GDAL's own drivers read the same bytes.
@Suite(.timeLimit(.minutes(20)))
struct LossyCodecTests {
    /// A smooth paper-like image with ink lines: what scans look like, so PSNR floors mean something.
    static func paper(width: Int = 256, height: Int = 256, transparentLeft: Int = 0) -> RGBAImage {
        var px = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                let ink = (x + 2 * y) % 37 < 2 || (3 * x - y + 1000) % 53 < 2
                let base = 225 - (x + y) / 16
                px[i] = UInt8(ink ? 60 : base)
                px[i + 1] = UInt8(ink ? 50 : base - 15)
                px[i + 2] = UInt8(ink ? 40 : base - 45)
                px[i + 3] = transparentLeft == 0 ? 255 : (x < transparentLeft ? 0 : (x < transparentLeft + 4 ? 128 : 255))
                if x < transparentLeft { px[i] = 0; px[i + 1] = 0; px[i + 2] = 0 }
            }
        }
        return RGBAImage(width: width, height: height, channels: 4, pixels: px)
    }

    /// PSNR of the RGB channels over pixels opaque in `a`.
    static func psnr(_ a: RGBAImage, _ b: RGBAImage) -> Double {
        var se = 0.0, n = 0
        for i in 0..<(a.width * a.height) where a.pixels[i * 4 + 3] == 255 {
            for c in 0..<3 { let d = Double(a.pixels[i * 4 + c]) - Double(b.pixels[i * 4 + c]); se += d * d }
            n += 3
        }
        return se == 0 ? .infinity : 10 * log10(255 * 255 / (se / Double(n)))
    }

    @Test func jpegRoundTripsAbovePSNRFloor() throws {
        let img = Self.paper()
        let jpeg = try JPEGEncoder(quality: 85).encode(img)
        #expect(ImageSignature(of: jpeg) == .jpeg)
        let back = try TileDecoder.decode(jpeg)
        #expect(back.width == 256 && back.height == 256)
        #expect(back.pixels.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 255 })
        let p = Self.psnr(img, back)
        #expect(p >= 32.05, "JPEG q85 PSNR \(p) dB")  // measured 32.56 dB, less 0.5 dB
        // A lower quality writes fewer bytes and loses more.
        let small = try JPEGEncoder(quality: 40).encode(img)
        #expect(small.count < jpeg.count)
        #expect(Self.psnr(img, try JPEGDecoder.decode(small)) < p)
    }

    @Test func webpLosslessIsExactWhereOpaque() throws {
        let img = Self.paper(transparentLeft: 40)
        let webp = try WebPEncoder().encode(img)
        #expect(ImageSignature(of: webp) == .webp)
        let back = try TileDecoder.decode(webp)
        for i in 0..<(img.width * img.height) {
            #expect(back.pixels[i * 4 + 3] == img.pixels[i * 4 + 3])
            if img.pixels[i * 4 + 3] != 0 {
                guard Array(back.pixels[i * 4..<i * 4 + 3]) == Array(img.pixels[i * 4..<i * 4 + 3]) else {
                    Issue.record("pixel \(i) differs"); return
                }
            }
        }
        let rgb = RGBAImage(width: 3, height: 2, channels: 3, pixels: Array(0..<18).map { UInt8($0 * 13) })
        #expect(try WebPDecoder.decode(WebPEncoder().encode(rgb)) == rgb.rgba)
    }

    /// Paper with a transparent left band whose hidden colour is not black (a pattern only a
    /// lossless encoder told to keep it keeps), and a half-transparent seam beside it.
    static func paperWithHiddenColour() -> RGBAImage {
        var img = paper(transparentLeft: 40)
        for y in 0..<img.height {
            for x in 0..<40 {
                let i = (y * img.width + x) * 4
                img.pixels[i] = UInt8((x * 7 + y) & 255); img.pixels[i + 1] = UInt8((y * 3) & 255); img.pixels[i + 2] = 200
            }
        }
        return img
    }

    /// Lossless WebP at every effort 0–9 decodes to its source: every channel of every pixel when
    /// the colour under transparent pixels is kept (`exact`), else alpha everywhere and the colour
    /// wherever alpha > 0 (what tiles promise, as GDAL's WEBP driver's `EXACT=0`). Oracle: the
    /// source pixels themselves.
    @Test(arguments: 0...9) func webpLosslessDecodesToItsSourceAtEveryEffort(effort: Int) throws {
        let img = Self.paperWithHiddenColour()
        let kept = try WebPDecoder.decode(WebPEncoder(losslessEffort: effort, keepsTransparentColour: true).encode(img))
        #expect(kept == img, "effort \(effort), exact: decoded pixels differ from the source")
        let free = try WebPDecoder.decode(WebPEncoder(losslessEffort: effort).encode(img))
        var visible = 0, differs = 0
        for i in 0..<(img.width * img.height) {
            let a = img.pixels[i * 4 + 3]
            #expect(free.pixels[i * 4 + 3] == a)
            if a == 0 { continue }
            visible += 1
            if Array(free.pixels[i * 4..<i * 4 + 3]) != Array(img.pixels[i * 4..<i * 4 + 3]) { differs += 1 }
        }
        #expect(visible == img.width * (img.height) - 40 * img.height)
        #expect(differs == 0, "effort \(effort): \(differs) visible pixels changed")
    }

    /// The effort reaches libwebp: effort 9 writes fewer bytes than effort 0 for the same pixels.
    @Test func webpLosslessEffortNineWritesFewerBytesThanZero() throws {
        let img = Self.paperWithHiddenColour()
        let fast = try WebPEncoder(losslessEffort: 0).encode(img), small = try WebPEncoder(losslessEffort: 9).encode(img)
        #expect(small.count < fast.count, "effort 9: \(small.count) bytes, effort 0: \(fast.count)")
    }

    @Test func webpLossyRoundTripsAbovePSNRFloorAndKeepsAlpha() throws {
        let img = Self.paper(transparentLeft: 40)
        let webp = try WebPEncoder(quality: 80).encode(img)
        let back = try WebPDecoder.decode(webp)
        let p = Self.psnr(img, back)
        #expect(p >= 34.9, "WebP q80 PSNR \(p) dB")  // measured 35.42 dB, less 0.5 dB
        #expect(back.pixels[3] == 0 && back.pixels[(255 * 256 + 255) * 4 + 3] == 255)
        #expect(p < .infinity, "lossy WebP changed no pixel")
    }

    @Test func png8KeepsTransparencyAndLooksClose() throws {
        let img = Self.paper(transparentLeft: 40)
        let png = try PNG8Encoder().encode(img)
        #expect(png[25] == 3, "IHDR colour type is palette")
        let chunkTypes = Self.chunkTypes(png)
        #expect(chunkTypes == ["IHDR", "PLTE", "tRNS", "IDAT", "IEND"])
        let back = try TileDecoder.decode(png)
        for i in 0..<(img.width * img.height) where img.pixels[i * 4 + 3] != 128 {
            guard back.pixels[i * 4 + 3] == img.pixels[i * 4 + 3] else { Issue.record("alpha at \(i)"); return }
        }
        let p = Self.psnr(img, back)
        #expect(p >= 48.4, "PNG8 PSNR \(p) dB")  // measured 48.95 dB, less 0.5 dB
        // An opaque image stays opaque and needs no tRNS.
        let opaquePNG = try PNG8Encoder().encode(Self.paper())
        #expect(!Self.chunkTypes(opaquePNG).contains("tRNS"))
        let opaque = try PNGDecoder.decode(opaquePNG)
        #expect(stride(from: 3, to: opaque.pixels.count, by: 4).allSatisfy { opaque.pixels[$0] == 255 })
    }

    /// GDAL (libpng, its palette and tRNS expanded to RGBA by `gdal_translate -expand rgba`)
    /// reads the PNG8's pixels as Tegula's decoder does, with the source's alpha and within the
    /// PSNR floor of the source.
    @Test func gdalReadsThePNG8sPixels() throws {
        let img = Self.paper(transparentLeft: 40)
        let png = try PNG8Encoder().encode(img)
        let dir = try TemporaryFolder.make("png8")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("t.png").path, rgba = dir.appendingPathComponent("t.tif").path
        try Data(png).write(to: URL(fileURLWithPath: path))
        let r = try ProgramRun.run("gdal_translate", ["-q", "-expand", "rgba", "-of", "GTiff", path, rgba])
        try #require(r.status == 0, "\(r.stderr)")
        let d = try Dataset(path: rgba)
        try #require(d.bandCount == 4 && d.width == 256 && d.height == 256, "\(d.bandCount) bands")
        var px = [UInt8](repeating: 0, count: 256 * 256 * 4)
        try px.withUnsafeMutableBufferPointer {
            try d.readBytes(x: 0, y: 0, width: 256, height: 256, bands: [1, 2, 3, 4], into: $0.baseAddress!)
        }
        let byGDAL = RGBAImage(width: 256, height: 256, channels: 4, pixels: px)
        // Alike: the same alpha everywhere, the same colour wherever alpha > 0 (under alpha 0 GDAL
        // gives black, Tegula the palette entry's colour; neither is ever seen).
        let ours = try TileDecoder.decode(png).pixels
        /// GDAL's and Tegula's RGBA of pixel `i` agree: alpha, and colour where alpha > 0.
        func alike(_ i: Int) -> Bool {
            let a = px[i * 4 + 3], b = ours[i * 4 + 3]
            if a != b { return false }
            if a == 0 { return true }
            return px[i * 4] == ours[i * 4] && px[i * 4 + 1] == ours[i * 4 + 1] && px[i * 4 + 2] == ours[i * 4 + 2]
        }
        let differing: [Int] = (0..<(256 * 256)).filter { !alike($0) }
        let first: String =
            differing.first.map { i -> String in
                "\(i): GDAL \(Array(px[(i * 4)..<(i * 4 + 4)])), Tegula \(Array(ours[(i * 4)..<(i * 4 + 4)]))"
            } ?? ""
        #expect(differing.isEmpty, "GDAL and Tegula decode \(differing.count) pixels differently, first \(first)")
        let alphaOff = (0..<(256 * 256)).filter { img.pixels[$0 * 4 + 3] != 128 && px[$0 * 4 + 3] != img.pixels[$0 * 4 + 3] }.count
        #expect(alphaOff == 0, "\(alphaOff) pixels with another alpha than the source's")
        let p = Self.psnr(img, byGDAL)
        #expect(p >= 48.4, "PNG8 read by GDAL: PSNR \(p) dB")  // measured 48.95 dB, less 0.5 dB
    }

    /// Paper with a grain of ±6 levels, as scans have: the texture dithering turns into noise.
    static func grainyPaper() -> RGBAImage {
        var img = paper()
        for y in 0..<256 {
            for x in 0..<256 {
                let i = (y * 256 + x) * 4
                guard img.pixels[i] > 100 else { continue }  // ink stays flat
                let n = ((x &* 73856093) ^ (y &* 19349663)) % 13 - 6
                for c in 0..<3 { img.pixels[i + c] = UInt8(Int(img.pixels[i + c]) + n) }
            }
        }
        return img
    }

    @Test func png8OfGrainyPaperIsUnderHalfTheLosslessBytesAbove35dB() throws {
        // The knobs BENCHMARKS.md measured (no dithering, quality cap 85). This image through
        // scripts/png8-knobs/knobs.c: 19 087 bytes (about 0.26 of a level-1 Up PNG's 73 760) at
        // 42 dB with 6 colours; full dithering at quality 100, as before, 41 141 bytes (0.56).
        let img = Self.grainyPaper()
        let png8 = try PNG8Encoder().encode(img)
        let lossless = PNGEncoder(level: 1, filter: .up).encodeDroppingOpaqueAlpha(img)
        let ratio = Double(png8.count) / Double(lossless.count)
        let p = Self.psnr(img, try PNGDecoder.decode(png8))
        #expect(ratio <= 0.45, "PNG8 \(png8.count) bytes = \(ratio) of lossless \(lossless.count)")
        #expect(p >= 35, "PNG8 PSNR \(p) dB")
        let dithered = try PNG8Encoder(quality: 100, dithering: 1).encode(img)
        #expect(dithered.count > png8.count, "full dithering at 256 colours should cost bytes")
    }

    @Test func gdalReadsOurJPEGWebPAndPNG8() throws {
        let img = Self.paper(transparentLeft: 40)
        let cases: [(String, [UInt8], String, Int)] = [
            ("jpg", try JPEGEncoder().encode(img), "JPEG", 3),
            ("webp", try WebPEncoder().encode(img), "WEBP", 4),
            ("png", try PNG8Encoder().encode(img), "PNG", 1),
        ]
        for (ext, bytes, driver, bands) in cases {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("tegula-\(UUID()).\(ext)").path
            defer { try? FileManager.default.removeItem(atPath: path) }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let d = try Dataset(path: path)
            #expect(d.driverName == driver && d.bandCount == bands, "\(ext): \(d.driverName) \(d.bandCount) bands")
            #expect(d.width == 256 && d.height == 256)
            if ext != "png" {  // GDAL's decode equals ours (same bytes in, RGB compared)
                var px = [UInt8](repeating: 0, count: 256 * 256 * bands)
                try px.withUnsafeMutableBufferPointer {
                    try d.readBytes(x: 0, y: 0, width: 256, height: 256, bands: Array(1...bands), into: $0.baseAddress!)
                }
                let ours = try TileDecoder.decode(bytes)
                var maxDiff = 0
                for i in 0..<(256 * 256) where img.pixels[i * 4 + 3] == 255 {
                    for c in 0..<3 { maxDiff = max(maxDiff, abs(Int(px[i * bands + c]) - Int(ours.pixels[i * 4 + c]))) }
                }
                #expect(maxDiff <= 2, "\(ext): GDAL and Tegula decodes differ by \(maxDiff)")
            }
        }
    }

    @Test func unknownAndCorruptBytesAreErrors() throws {
        #expect(throws: CodecError.self) { try TileDecoder.decode([1, 2, 3, 4]) }
        #expect(throws: CodecError.self) { try TileDecoder.decode([0xFF, 0xD8, 0xFF, 0xE0, 0, 0]) }
        #expect(throws: CodecError.self) { try TileDecoder.decode(Array("RIFF\0\0\0\0WEBPVP8 ".utf8)) }
    }

    static func chunkTypes(_ png: [UInt8]) -> [String] {
        var at = 8, types: [String] = []
        while at + 8 <= png.count {
            let len = png[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
            types.append(String(decoding: png[at + 4..<at + 8], as: UTF8.self))
            at += 12 + len
        }
        return types
    }
}
