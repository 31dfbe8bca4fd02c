import Foundation
import TegulaGDAL
import TegulaTestSupport
import TegulaWarp

/// Test inputs and helpers for the pyramid tests.
enum PyramidFixtures {
    /// The warp source of a georeferenced raster at `path`, as `tegula tile` resolves it.
    static func source(_ path: String) throws -> WarpSource {
        try WarpInput(path: path).resolve()
    }

    /// The shared synthetic scan (TegulaTestSupport) written into `dir`; returns its path.
    static func geotiff(in dir: URL, name: String = "src.tif") throws -> String {
        let path = dir.appendingPathComponent(name).path
        try SyntheticGeoTIFF.write(to: path)
        return path
    }

    /// Every tile file under a folder tileset, keyed "z/x/y".
    static func tiles(in folder: String, ext: String = "png") throws -> [String: Data] {
        var out: [String: Data] = [:]
        let fm = FileManager.default
        for z in try fm.contentsOfDirectory(atPath: folder) where Int(z) != nil {
            for x in try fm.contentsOfDirectory(atPath: folder + "/" + z) where Int(x) != nil {
                for f in try fm.contentsOfDirectory(atPath: folder + "/" + z + "/" + x) where f.hasSuffix("." + ext) {
                    let y = f.replacingOccurrences(of: "." + ext, with: "")
                    out["\(z)/\(x)/\(y)"] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + z + "/" + x + "/" + f))
                }
            }
        }
        return out
    }

    /// Decode a PNG tile with GDAL into RGBA.
    static func rgba(_ data: Data) throws -> [UInt8] {
        let path = "/vsimem/tegula-test-\(UUID()).png"
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("t-\(UUID()).png")
        try data.write(to: tmp)
        defer { try? FileManager.default.removeItem(at: tmp) }
        _ = path
        let d = try Dataset(path: tmp.path)
        var px = [UInt8](repeating: 255, count: d.width * d.height * 4)
        let bands = d.bandCount
        var raw = [UInt8](repeating: 0, count: d.width * d.height * bands)
        try raw.withUnsafeMutableBufferPointer {
            try d.readBytes(x: 0, y: 0, width: d.width, height: d.height, bands: Array(1...bands), into: $0.baseAddress!)
        }
        for i in 0..<(d.width * d.height) {
            for c in 0..<bands { px[i * 4 + c] = raw[i * bands + c] }
        }
        return px
    }

    /// The built `tegula` executable of the build under test (``BuiltTegula``).
    static var tegula: String { get throws { try BuiltTegula.path() } }
}
