import Foundation
import TegulaGDAL
import TegulaGeometry
import TegulaTestSupport
import TegulaTileset
import Testing

@testable import TegulaPyramid

/// Tile pixels against oracles Tegula does not share code with (issue 16 item 6): lower zooms
/// against `gdalwarp -r average` of the scan onto each tile's bounds, @2x tiles against a 512-px
/// gdalwarp of the same bounds, and JPEG and WebP tiles decoded by GDAL (libjpeg, libwebp)
/// against the lossless PNG tiles of the same job decoded by GDAL too.
@Suite(.timeLimit(.minutes(20)))
struct TileOracleTests {
    /// Pixel agreement summed over many tiles: PSNR of RGB over pixels opaque in both, and how
    /// many pixels are transparent in one but not the other.
    struct Agreement: CustomStringConvertible {
        var se = 0.0, n = 0, alphaMismatch = 0, pixels = 0
        var psnr: Double { n == 0 ? 0 : se == 0 ? 99 : 10 * log10(255 * 255 / (se / Double(n * 3))) }
        var mismatchShare: Double { Double(alphaMismatch) / Double(max(1, pixels)) }
        var description: String {
            String(
                format: "PSNR %.1f dB over %d px opaque in both, alpha mismatch %d of %d px (%.2f %%)",
                psnr, n, alphaMismatch, pixels, 100 * mismatchShare)
        }

        /// Adds two RGBA images of the same size; `opaque` is the least alpha counted as opaque.
        mutating func add(_ a: [UInt8], _ b: [UInt8], opaque: UInt8 = 255) {
            precondition(a.count == b.count, "images of different sizes: \(a.count) and \(b.count) bytes")
            for i in stride(from: 0, to: a.count, by: 4) {
                pixels += 1
                if (a[i + 3] == 0) != (b[i + 3] == 0) { alphaMismatch += 1 }
                guard a[i + 3] >= opaque, b[i + 3] >= opaque else { continue }
                n += 1
                for c in 0..<3 { let d = Double(a[i + c]) - Double(b[i + c]); se += d * d }
            }
        }
    }

    /// Decodes any raster GDAL reads (a tile's bytes in a file named `name`) into RGBA; 3-band
    /// rasters are opaque.
    static func decode(_ data: Data, name: String, in dir: URL) throws -> (side: Int, px: [UInt8]) {
        let file = dir.appendingPathComponent(name)
        try data.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let d = try Dataset(path: file.path)
        let bands = d.bandCount
        var raw = [UInt8](repeating: 0, count: d.width * d.height * bands)
        try raw.withUnsafeMutableBufferPointer {
            try d.readBytes(x: 0, y: 0, width: d.width, height: d.height, bands: Array(1...bands), into: $0.baseAddress!)
        }
        var px = [UInt8](repeating: 255, count: d.width * d.height * 4)
        for i in 0..<(d.width * d.height) {
            for c in 0..<min(bands, 4) { px[i * 4 + c] = raw[i * bands + c] }
        }
        return (d.width, px)
    }

    /// gdalwarp of `source` onto `tile`'s EPSG:3857 bounds at `side` px, exact transforms.
    static func gdalwarp(_ source: String, _ tile: Tile, side: Int, resampling: String, in dir: URL) throws -> [UInt8] {
        let b = tile.projectedBounds
        let out = dir.appendingPathComponent("oracle-\(tile.z)-\(tile.x)-\(tile.y)-\(side)-\(resampling).tif")
        defer { try? FileManager.default.removeItem(at: out) }
        let r = try ProgramRun.run(
            "gdalwarp",
            [
                "-q", "-t_srs", "EPSG:3857", "-te", "\(b.left)", "\(b.bottom)", "\(b.right)", "\(b.top)",
                "-ts", "\(side)", "\(side)", "-r", resampling, "-et", "0", "-dstalpha", source, out.path,
            ])
        try #require(r.status == 0, "gdalwarp: \(r.stderr)")
        return try decode(try Data(contentsOf: out), name: "copy-\(UUID()).tif", in: dir).px
    }

    /// The tile a folder key "z/x/y" or "z/x/y@2x" names.
    static func tile(_ key: String) -> Tile {
        let p = key.replacingOccurrences(of: "@2x", with: "").split(separator: "/").compactMap { Int($0) }
        return Tile(x: p[1], y: p[2], z: p[0])
    }

    static func cut(
        _ scan: String, _ dir: URL, _ name: String, zooms: ClosedRange<Int>, scale: Int = 1,
        format: TileFormat = .png, quality: Int? = nil
    ) throws -> String {
        let out = dir.appendingPathComponent(name).path
        var job = TileJob(source: try PyramidFixtures.source(scan), output: out, name: name)
        job.settings = try TileSettings(
            zooms: ZoomRequest(min: zooms.lowerBound, max: zooms.upperBound)!, scale: scale,
            format: format, quality: quality)
        _ = try job.run()
        return out
    }

    /// Zooms 5 and 6 are made from zoom 7's tiles; each tile agrees with gdalwarp averaging the
    /// scan itself onto that tile's bounds: PSNR 1 dB under the measured, alpha mismatch the
    /// measured share plus a margin (the same in 3 runs: 46.36 dB and 0.105 % at zoom 5, 41.68 dB
    /// and 0.187 % at zoom 6).
    @Test func lowerZoomsAgreeWithAnAveragingGdalwarpOfTheScan() throws {
        let dir = try TemporaryFolder.make("tile-oracle")
        defer { try? FileManager.default.removeItem(at: dir) }
        let scan = try PyramidFixtures.geotiff(in: dir)
        let tiles = try PyramidFixtures.tiles(in: try Self.cut(scan, dir, "lower", zooms: 5...7))
        for (z, floor, mismatch) in [(5, 45.3, 0.0015), (6, 40.6, 0.0025)] {
            var agreement = Agreement()
            let keys = tiles.keys.filter { $0.hasPrefix("\(z)/") }
            #expect(keys.count >= 2, "zoom \(z): \(keys.count) tiles")
            for key in keys {
                let ours = try Self.decode(tiles[key]!, name: "t.png", in: dir)
                agreement.add(ours.px, try Self.gdalwarp(scan, Self.tile(key), side: 256, resampling: "average", in: dir))
            }
            print("zoom \(z) (\(keys.count) tiles) vs gdalwarp -r average of the scan: \(agreement)")
            #expect(agreement.n > 20_000 * (7 - z), "zoom \(z): \(agreement)")
            #expect(agreement.psnr >= floor, "zoom \(z): \(agreement)")
            #expect(agreement.mismatchShare < mismatch, "zoom \(z): \(agreement)")
        }
    }

    /// @2x tiles have 512 px of the same bounds: each agrees with a 512-px gdalwarp of them.
    @Test func retinaTilesAgreeWithA512PixelGdalwarp() throws {
        let dir = try TemporaryFolder.make("tile-oracle")
        defer { try? FileManager.default.removeItem(at: dir) }
        let scan = try PyramidFixtures.geotiff(in: dir)
        let tiles = try PyramidFixtures.tiles(in: try Self.cut(scan, dir, "retina", zooms: 6...6, scale: 2))
        #expect(tiles.count >= 2 && tiles.keys.allSatisfy { $0.hasSuffix("@2x") }, "\(tiles.keys.sorted())")
        var agreement = Agreement()
        for (key, data) in tiles {
            let ours = try Self.decode(data, name: "t.png", in: dir)
            #expect(ours.side == 512, "\(key): \(ours.side) px")
            agreement.add(ours.px, try Self.gdalwarp(scan, Self.tile(key), side: 512, resampling: "bilinear", in: dir))
        }
        print("@2x zoom 6 (\(tiles.count) tiles) vs 512-px gdalwarp -r bilinear: \(agreement)")
        #expect(agreement.n > 100_000, "\(agreement)")
        // Measured 71.81 dB and no pixel of 5,242,880 transparent in one only, in 3 runs.
        #expect(agreement.psnr >= 70.8, "\(agreement)")
        #expect(agreement.mismatchShare < 1e-6, "\(agreement)")
    }

    /// JPEG and WebP tiles, decoded by GDAL, against the same job's PNG tiles decoded by GDAL:
    /// lossless WebP equal, the lossy ones above a floor: the measured PSNR less 0.5 dB (JPEG q85
    /// 34.9 dB, WebP q80 35.0 dB measured).
    @Test(arguments: [(TileFormat.jpeg, 85 as Int?, 34.4), (.webp, 80, 34.5), (.webp, nil, 99.0)])
    func lossyTilesDecodedByGDALAgreeWithTheLosslessTiles(format: TileFormat, quality: Int?, floor: Double) throws {
        let dir = try TemporaryFolder.make("tile-oracle")
        defer { try? FileManager.default.removeItem(at: dir) }
        let scan = try PyramidFixtures.geotiff(in: dir)
        let png = try PyramidFixtures.tiles(in: try Self.cut(scan, dir, "png", zooms: 6...7))
        let ext = format.fileExtension
        let other = try PyramidFixtures.tiles(in: try Self.cut(scan, dir, ext, zooms: 6...7, format: format, quality: quality), ext: ext)
        #expect(Set(other.keys) == Set(png.keys))
        var agreement = Agreement()
        for (key, data) in png {
            let reference = try Self.decode(data, name: "t.png", in: dir)
            let decoded = try Self.decode(try #require(other[key], "\(key) missing"), name: "t.\(ext)", in: dir)
            // JPEG has no alpha: its pixels are compared where the PNG is opaque.
            agreement.add(reference.px, decoded.px, opaque: format == .jpeg ? 255 : 1)
        }
        print("\(ext) quality \(quality.map(String.init) ?? "lossless") decoded by GDAL vs the PNG tiles: \(agreement)")
        #expect(agreement.n > 100_000, "\(agreement)")
        #expect(agreement.psnr >= floor, "\(agreement)")
        if format != .jpeg { #expect(agreement.alphaMismatch == 0, "\(agreement)") }
    }
}
