import Foundation
import TegulaCodec
import TegulaComposite
import TegulaCrypto
import TegulaGeometry
import TegulaSupport
import TegulaTileset
import Testing

@testable import TegulaPipeline
@testable import TegulaPyramid

/// Batches: a failing map is named and the others finish; compositing blends later over earlier.
struct BatchTests {
    @Test func oneFailingMapLeavesTheOthersIntact() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        try f.image("world.tif")
        try f.image("plain.tif")
        let path = try f.pipeline(
            "version: 1\nmaps:\n" + PipelineFixtures.worldMap(name: "first", output: "out/first")
                + "  - name: broken\n    input: plain.tif\n    output: out/broken\n"
                + PipelineFixtures.worldMap(name: "last", output: "out/last"))
        let r = try runPipeline(path)
        let failure = try #require(r.error as? BatchFailure)
        #expect(failure.failures.map(\.map) == ["broken"])
        #expect(failure.finished == ["first", "last"])
        #expect("\(failure)".contains("1 of 3 maps failed ('broken'); finished and intact: first, last"))
        #expect(Tileset.isTileset(at: f.folder + "/out/first"))
        #expect(Tileset.isTileset(at: f.folder + "/out/last"))
        #expect(!FileManager.default.fileExists(atPath: f.folder + "/out/broken"))
    }

    @Test func compositeDrawsLaterMapsOverEarlierOnes() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        try f.image("base.tif", seed: 10)
        try f.image("top.tif", seed: 200)
        let path = try f.pipeline(
            """
            version: 1
            maps:
              - name: base
                input: base.tif
                georeference: {bounds: [-180, -85, 180, 85]}
              - name: top
                input: top.tif
                georeference:
                  bounds: [0, 0, 90, 60]
                  mask: [[0, 0], [64, 0], [64, 64], [0, 64]]
            composite:
              output: out/both.pmtiles
              tile: {min_zoom: 0, max_zoom: 2}
            """)
        let r = try runPipeline(path)
        #expect(r.error == nil, "\(String(describing: r.error)) \(r.log)")
        let reader = try Tileset.openReader(at: f.folder + "/out/both.pmtiles")
        #expect(reader.metadata.zooms.max == 2)
        // Zoom 2, tile (2, 1) holds lon 0–90, lat 0–66.5: the top map (blue 200) over the base (blue 10).
        let tile = try PNGDecoder.decode(try #require(try reader.tile(Tile(x: 2, y: 1, z: 2)))).rgba
        let blue = { (x: Int, y: Int) in tile.pixels[(y * tile.width + x) * 4 + 2] }
        #expect(blue(20, 200) == 200)  // inside the top map's masked half
        #expect(blue(200, 20) == 10)  // east of its mask: the base shows through
        // Unchanged: the composite is skipped.
        let again = try runPipeline(path)
        #expect(again.log.contains { $0.hasPrefix("composite:  skipped") }, "\(again.log)")
    }

    /// A composite cut `auto` with `auto_lossy: webp` into a folder: lossy WebP exactly on the
    /// opaque tiles (blended and above the blocks alike), PNG only where a pixel is transparent.
    @Test func compositeAutoLossyWebP() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        try f.image("base.tif", seed: 10)
        try f.image("top.tif", seed: 200)
        let path = try f.pipeline(
            """
            version: 1
            maps:
              - name: base
                input: base.tif
                georeference: {bounds: [-170, -80, 170, 80]}
              - name: top
                input: top.tif
                georeference: {bounds: [0, 0, 90, 60]}
            composite:
              output: out/both
              tile: {min_zoom: 0, max_zoom: 3, format: auto, auto_lossy: webp, quality: 90}
            """)
        let r = try runPipeline(path)
        #expect(r.error == nil, "\(String(describing: r.error)) \(r.log)")
        var kinds: [String: Int] = [:]
        let root = f.folder + "/out/both"
        for z in 0...3 {
            for x in (try? FileManager.default.contentsOfDirectory(atPath: "\(root)/\(z)")) ?? [] {
                for file in try FileManager.default.contentsOfDirectory(atPath: "\(root)/\(z)/\(x)") {
                    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(root)/\(z)/\(x)/\(file)")))
                    let ext = (file as NSString).pathExtension
                    kinds[ext, default: 0] += 1
                    let image = try TileDecoder.decode(bytes).rgba
                    let opaque = stride(from: 3, to: image.pixels.count, by: 4).allSatisfy { image.pixels[$0] == 255 }
                    switch ext {
                    case "webp": #expect(ImageSignature(of: bytes) == .webp && opaque, "\(z)/\(x)/\(file)")
                    case "png": #expect(ImageSignature(of: bytes) == .png && !opaque, "\(z)/\(x)/\(file) is opaque: auto must write WebP")
                    default: Issue.record("\(z)/\(x)/\(file): no \(ext) in an auto --auto-lossy webp composite")
                    }
                }
            }
        }
        #expect((kinds["webp"] ?? 0) > 0 && (kinds["png"] ?? 0) > 0, "\(kinds)")
        let json = try JSONValue.parse([UInt8](try Data(contentsOf: URL(fileURLWithPath: root + "/tiles.json"))))
        #expect(json["format"] == .string("auto"))
    }

    @Test func compositeIsNotWrittenWhenAMapFails() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        try f.image("base.tif")
        try f.image("plain.tif")
        let path = try f.pipeline(
            """
            version: 1
            maps:
              - name: base
                input: base.tif
                georeference: {bounds: [-180, -85, 180, 85]}
              - name: broken
                input: plain.tif
            composite:
              output: out/both.pmtiles
              tile: {max_zoom: 1}
            """)
        let r = try runPipeline(path)
        let failure = try #require(r.error as? BatchFailure)
        #expect(failure.failures.map(\.map) == ["broken"])
        #expect(r.log.contains { $0.contains("composite \(f.folder)/out/both.pmtiles not written: 1 map(s) failed") }, "\(r.log)")
        #expect(!FileManager.default.fileExists(atPath: f.folder + "/out/both.pmtiles"))
    }

    @Test func overOperator() {
        var bottom = RGBAImage(width: 1, height: 1, channels: 4, pixels: [0, 0, 255, 255])
        Compositor.over(RGBAImage(width: 1, height: 1, channels: 4, pixels: [255, 0, 0, 128]), onto: &bottom)
        #expect(bottom.pixels == [128, 0, 127, 255])
        var clear = RGBAImage(width: 1, height: 1)
        Compositor.over(RGBAImage(width: 1, height: 1, channels: 4, pixels: [10, 20, 30, 100]), onto: &clear)
        #expect(clear.pixels == [10, 20, 30, 100])
    }

    @Test func sha256KnownValues() {
        #expect(ContentHash.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(ContentHash.hex([UInt8]()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(ContentHash.hex([UInt8](repeating: 0x61, count: 1000)) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }
}
