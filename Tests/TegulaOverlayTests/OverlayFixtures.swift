import Foundation
import TegulaGDAL
import TegulaGeometry
import TegulaPyramid
import TegulaTestSupport
import TegulaTileset
import TegulaWarp

/// Real tilesets made by the pyramid stage (`TileJob`, what `tegula tile` runs) from a small
/// generated GeoTIFF: the same pyramid (zooms 4–6) as a folder, an MBTiles and a PMTiles.
final class OverlayFixtures: @unchecked Sendable {
    let dir: URL
    let folder: String
    let mbtiles: String
    let pmtiles: String
    /// Every tile of the folder, keyed by XYZ tile.
    let tiles: [Tile: Data]
    static let zooms = 4...6

    static let shared = try! OverlayFixtures()

    init() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("tegula-overlay-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let src = dir.appendingPathComponent("src.tif").path
        try Self.writeGeoTIFF(src)
        let source = try WarpInput(path: src).resolve()
        folder = dir.appendingPathComponent("scan").path
        mbtiles = dir.appendingPathComponent("scan-mb.mbtiles").path
        pmtiles = dir.appendingPathComponent("scan-pm.pmtiles").path
        for out in [folder, mbtiles, pmtiles] {
            var job = TileJob(source: source, output: out, name: "scan")
            job.settings = try TileSettings(zooms: ZoomRequest(min: Self.zooms.lowerBound, max: Self.zooms.upperBound)!)
            job.jobs = 2
            _ = try job.run()
        }
        var t: [Tile: Data] = [:]
        let fm = FileManager.default
        for z in Self.zooms {
            for x in (try? fm.contentsOfDirectory(atPath: "\(folder)/\(z)")) ?? [] {
                for f in try fm.contentsOfDirectory(atPath: "\(folder)/\(z)/\(x)") where f.hasSuffix(".png") {
                    let tile = Tile(x: Int(x)!, y: Int(f.dropLast(4))!, z: z)
                    t[tile] = try Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(z)/\(x)/\(f)"))
                }
            }
        }
        tiles = t
    }

    /// The shared synthetic scan (TegulaTestSupport).
    static func writeGeoTIFF(_ src: String) throws { try SyntheticGeoTIFF.write(to: src) }

    /// A tile position at the max zoom with no tile (outside the scan), for the missing case.
    var absentTile: Tile {
        let z = Self.zooms.upperBound
        return Tile(x: 0, y: 0, z: z)
    }

    /// The max-zoom tile with the most varied pixels: a good ancestor for overzoom checks.
    var opaqueMaxZoomTile: Tile {
        tiles.keys.filter { $0.z == Self.zooms.upperBound }.max { (tiles[$0]!.count, $0.x) < (tiles[$1]!.count, $1.x) }!
    }
}

extension OverlayFixtures {
    /// A temporary folder removed when the value is released.
    final class ScratchFolder: @unchecked Sendable {
        let url: URL
        init() throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("tegula-overlay-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(at: url) }

        /// Writes `data` at `relative`, creating folders.
        func write(_ data: Data, to relative: String) throws {
            let file = url.appendingPathComponent(relative)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: file)
        }
    }
}
