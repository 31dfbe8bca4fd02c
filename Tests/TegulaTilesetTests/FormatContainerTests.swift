import Foundation
import TegulaCodec
import TegulaGeometry
import TegulaTestSupport
import Testing

@testable import TegulaTileset

/// Each tile format through every container: the bytes come back, and each container declares
/// the format its tiles have (folder extensions, TileJSON/MBTiles `format`, PMTiles tile type).
/// `auto` mixes JPEG and PNG, which only a folder holds (one file extension per tile).
struct FormatContainerTests {
    static let opaque = RGBAImage(
        width: 16, height: 16, channels: 4,
        pixels: (0..<256).flatMap { i in [UInt8(i), UInt8(255 - i), 90, 255] })
    static var partial: RGBAImage {
        var img = opaque
        for i in 0..<64 { img.pixels[i * 4 + 3] = 0 }
        return img
    }

    /// Real encoded bytes for a stored format.
    static func bytes(_ f: TileFormat) throws -> [UInt8] {
        switch f {
        case .png, .auto: return PNGEncoder().encode(partial)
        case .jpeg: return try JPEGEncoder().encode(opaque)
        case .webp: return try WebPEncoder().encode(partial)
        case .png8: return try PNG8Encoder().encode(partial)
        }
    }

    @Test(arguments: [TileFormat.png, .jpeg, .webp, .png8])
    func everyFormatRoundTripsThroughEveryContainer(format: TileFormat) throws {
        let data = try Self.bytes(format)
        let t = Tile(x: 1, y: 2, z: 3)
        for name in ["out", "out.mbtiles", "out.pmtiles"] {
            let path = try TemporaryFolder.make("formats").path + "/" + name
            let w = try Tileset.openWriter(at: path, format: format)
            try w.write(t, data: data)
            try w.finish(metadata: BundleFixtures.metadata(maxZoom: 3))
            let r = try Tileset.openReader(at: path)
            #expect(try r.tile(t) == data, "\(format) in \(name)")
            #expect(r.metadata.format == format.stored, "\(name) declares \(r.metadata.format)")
            #expect(TileFormat(sniffing: data) == format.stored)
            if name == "out" {
                #expect(FileManager.default.fileExists(atPath: "\(path)/3/1/2.\(format.stored.rawValue)"))
                let json = try JSONValue.parse(try #require(try FileIO.readFile(path + "/tiles.json")))
                #expect(json["format"] == .string(format.stored.rawValue))
                #expect(json["tiles"] == .array([.string("{z}/{x}/{y}.\(format.stored.rawValue)")]))
            }
            if name == "out.pmtiles" {
                let header = try #require(try FileIO.readFile(path))
                let expected: [TileFormat: UInt8] = [.png: 2, .jpeg: 3, .webp: 4, .png8: 2]
                #expect(header[99] == expected[format])
            }
            #expect(try TileDecoder.decode(try #require(try r.tile(t))).width == 16)
        }
    }

    @Test func autoFolderNamesEachTileByItsBytes() throws {
        let path = try TemporaryFolder.make("formats").path + "/auto"
        let w = try Tileset.openWriter(at: path, format: .auto)
        let a = Tile(x: 0, y: 0, z: 1), b = Tile(x: 1, y: 0, z: 1)
        let jpeg = try Self.bytes(.jpeg), png = try Self.bytes(.png)
        try w.write(a, data: jpeg)
        try w.write(b, data: png)
        try w.write(b, data: jpeg)  // the tile changed format: its .png goes
        try w.write(b, data: png)  // and back: its .jpg goes
        try w.finish(metadata: BundleFixtures.metadata(maxZoom: 1))
        #expect(FileManager.default.fileExists(atPath: path + "/1/0/0.jpg"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: path + "/1/1") == ["0.png"])
        let json = try JSONValue.parse(try #require(try FileIO.readFile(path + "/tiles.json")))
        #expect(json["format"] == .string("auto"))
        #expect(json["tiles"] == .array([]))  // no one template names both extensions
        let r = try Tileset.openReader(at: path)
        #expect(r.metadata.format == .auto)
        #expect(try r.tile(a) == jpeg && r.tile(b) == png)
        #expect(try r.tile(Tile(x: 0, y: 1, z: 1)) == nil)
        #expect(Tileset.existingTiles(at: path) == [a, b])
        #expect(TileFormat.auto.contentType(of: jpeg) == "image/jpeg" && TileFormat.auto.contentType(of: png) == "image/png")
    }

    /// `auto --auto-lossy webp`: the opaque tiles are `.webp` files, read back and answered as WebP.
    @Test func autoFolderHoldsWebPTilesToo() throws {
        let path = try TemporaryFolder.make("formats").path + "/auto-webp"
        let w = try Tileset.openWriter(at: path, format: .auto)
        let a = Tile(x: 0, y: 0, z: 1), b = Tile(x: 1, y: 0, z: 1)
        let webp = try Self.bytes(.webp), png = try Self.bytes(.png)
        try w.write(a, data: webp)
        try w.write(b, data: webp)
        try w.write(b, data: png)  // the tile changed format: its .webp goes
        try w.finish(metadata: BundleFixtures.metadata(maxZoom: 1))
        #expect(try FileManager.default.contentsOfDirectory(atPath: path + "/1/0") == ["0.webp"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: path + "/1/1") == ["0.png"])
        let r = try Tileset.openReader(at: path)
        #expect(try r.tile(a) == webp && r.tile(b) == png)
        #expect(Tileset.existingTiles(at: path) == [a, b])
        #expect(TileFormat.auto.contentType(of: webp) == "image/webp" && TileFormat.auto.fileExtension(of: webp) == "webp")
        #expect(try TileDecoder.decode(webp).width == 16)
    }

    @Test func autoIsRefusedWhereOneFormatIsDeclared() throws {
        for (name, container) in [("out.mbtiles", "MBTiles"), ("out.pmtiles", "PMTiles")] {
            let path = try TemporaryFolder.make("formats").path + "/" + name
            #expect(throws: TilesetError.formatNotHeld(path: path, format: "auto", container: container)) {
                _ = try Tileset.openWriter(at: path, format: .auto)
            }
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }

    @Test func qualityIsCheckedInOneLine() throws {
        #expect(throws: TileFormat.OptionError.self) { try TileFormat.checkQuality(0, for: .jpeg) }
        #expect(throws: TileFormat.OptionError.self) { try TileFormat.checkQuality(101, for: .webp) }
        #expect(throws: TileFormat.OptionError.self) { try TileFormat.checkQuality(80, for: .png) }
        #expect(throws: TileFormat.OptionError.self) { try TileFormat.checkQuality(80, for: .png8) }
        try TileFormat.checkQuality(80, for: .auto)
        try TileFormat.checkQuality(1, for: .jpeg)
        try TileFormat.checkQuality(100, for: .webp)
        #expect(TileFormat(name: "JPEG") == .jpeg && TileFormat(name: "png8") == .png8 && TileFormat(name: "auto") == .auto)
        #expect(TileFormat(name: "gif") == nil)
        try AutoLossy.check(.webp, for: .auto)
        #expect(throws: TileFormat.OptionError.self) { try AutoLossy.check(.webp, for: .png) }
        #expect(AutoLossy(name: "JPG") == .jpeg && AutoLossy(name: "webp") == .webp && AutoLossy(name: "png") == nil)
    }
}
