import Foundation
import TegulaCodec
import TegulaGDAL
import Testing

/// PNGs we write decode to the same pixels with libpng and with GDAL's PNG driver.
struct PNGRoundTripTests {
    @Test(arguments: [PNGEncoder.Filter.none, .sub, .up, .average, .paeth])
    func everyFilterRoundTrips(filter: PNGEncoder.Filter) throws {
        for channels in [3, 4] {
            let img = CodecFixtures.sample(width: 37, height: 19, channels: channels)
            let png = PNGEncoder(level: 1, filter: filter).encode(img)
            #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            let back = try PNGDecoder.decode(png)
            #expect(back == img.rgba, "filter \(filter) channels \(channels)")
        }
    }

    @Test func gdalReadsOurPNG() throws {
        let img = CodecFixtures.sample(width: 256, height: 256, channels: 4)
        let png = PNGEncoder(level: 2, filter: .paeth).encode(img)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tegula-\(UUID()).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(png).write(to: URL(fileURLWithPath: path))
        let d = try Dataset(path: path)
        #expect(d.driverName == "PNG" && d.bandCount == 4)
        var px = [UInt8](repeating: 0, count: 256 * 256 * 4)
        try px.withUnsafeMutableBufferPointer {
            try d.readBytes(x: 0, y: 0, width: 256, height: 256, bands: [1, 2, 3, 4], into: $0.baseAddress!)
        }
        #expect(px == img.pixels)
    }

    @Test func corruptPNGIsAnError() {
        #expect(throws: CodecError.self) { try PNGDecoder.decode([1, 2, 3]) }
        var png = PNGEncoder().encode(CodecFixtures.sample(width: 8, height: 8, channels: 3))
        png[40] ^= 0xFF
        #expect(throws: CodecError.self) { try PNGDecoder.decode(png) }
    }
}
