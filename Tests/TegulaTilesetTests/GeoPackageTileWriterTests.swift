import Foundation
import TegulaCodec
import TegulaGeometry
import TegulaTestSupport
import TegulaTileset
import Testing

/// A small pyramid in the British National Grid (EPSG:27700) written as a GeoPackage and read
/// back by GDAL's GPKG driver: `gdalinfo` finds the CRS, the grid's origin and the deepest zoom's
/// pixel size, and `gdal_translate -oo ZOOM_LEVEL=N` of each zoom gives every tile's colour where
/// the tile lies. Each tile is one flat colour made from its column, row and zoom.
@Suite(.timeLimit(.minutes(20)))
struct GeoPackageTileWriterTests {
    /// The BNG grid over the Ordnance Survey's published extent, zooms 0–3.
    static func grid() throws -> TileMatrixSet {
        try TileMatrixSet.custom(
            extent: GridBounds(left: -238375.0, bottom: 0.0, right: 900000.0, top: 1376256.0),
            crs: .init(uri: "http://www.opengis.net/def/crs/EPSG/0/27700", metersPerUnit: 1, axes: ["E", "N"]),
            zooms: 0...3, id: "BNG")
    }

    /// The colour of tile `t`: red its column, green its row, blue its zoom (times 40).
    static func colour(_ t: Tile) -> [UInt8] { [UInt8(t.x * 30 + 10), UInt8(t.y * 30 + 10), UInt8(t.z * 40 + 20), 255] }

    @Test func gdalReadsTheGridAndEveryZoomsTiles() throws {
        let tms = try Self.grid()
        let folder = try TemporaryFolder.make("gpkg")
        let path = folder.appendingPathComponent("bng.gpkg").path
        let wkt = try ProgramRun.run("gdalsrsinfo", ["-o", "wkt1", "--single-line", "EPSG:27700"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let srs = GeoPackageTileWriter.SpatialReference(
            id: 27700, name: "OSGB36 / British National Grid", organization: "EPSG",
            code: 27700, definition: wkt)
        let writer = try GeoPackageTileWriter(path: path, tms: tms, srs: srs, zooms: 0...3)
        // Great Britain's box, so that the lower zooms' tiles beyond it are absent.
        let content = GridBounds(left: 0, bottom: 0, right: 700000, top: 1300000)
        var written: [Tile] = []
        for z in 0...3 {
            for t in tms.tiles(covering: content, zoom: z) {
                let pixels = [UInt8]((0..<(256 * 256)).flatMap { _ in Self.colour(t) })
                try writer.write(t, data: PNGEncoder().encode(pixels: pixels, width: 256, height: 256, channels: 4))
                written.append(t)
            }
        }
        #expect(!FileManager.default.fileExists(atPath: path), "OUT appears only when finished")
        try writer.finish(contents: content)

        let info = try ProgramRun.run("gdalinfo", ["-json", path])
        #expect(info.status == 0, "\(info.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as! [String: Any]
        let gt = json["geoTransform"] as! [Double]
        let wktOut = ((json["coordinateSystem"] as? [String: Any])?["wkt"] as? String) ?? ""
        #expect(wktOut.contains("27700"), "CRS: \(wktOut.prefix(200))")
        let deepest = try tms.matrix(zoom: 3).cellSize
        #expect(abs(gt[1] - deepest) < 1e-9 && abs(gt[5] + deepest) < 1e-9, "pixel size \(gt)")
        #expect(gt[2] == 0 && gt[4] == 0)

        var compared = 0
        for z in 0...3 {
            let tif = folder.appendingPathComponent("z\(z).tif").path
            let r = try ProgramRun.run("gdal_translate", ["-q", "-oo", "ZOOM_LEVEL=\(z)", path, tif])
            #expect(r.status == 0, "zoom \(z): \(r.stderr)")
            for t in written where t.z == z {
                let b = tms.bounds(of: t)
                let x = (b.left + b.right) / 2, y = (b.bottom + b.top) / 2
                // Tiles whose centre lies outside the content's bounds fall outside GDAL's raster.
                guard x > content.left, x < content.right, y > content.bottom, y < content.top else { continue }
                let p = try ProgramRun.run("gdallocationinfo", ["-valonly", "-geoloc", tif, "\(x)", "\(y)"])
                let values = p.stdout.split(separator: "\n").compactMap { UInt8($0.trimmingCharacters(in: .whitespaces)) }
                #expect(values == Self.colour(t), "zoom \(z) tile \(t): GDAL read \(values), wrote \(Self.colour(t))")
                compared += 1
            }
        }
        #expect(compared >= 40, "only \(compared) tiles compared")
    }

    @Test func aGridWithCoalescedRowsIsRefusedInOneLine() throws {
        let folder = try TemporaryFolder.make("gpkg-refused")
        let path = folder.appendingPathComponent("g.gpkg").path
        let srs = GeoPackageTileWriter.SpatialReference(id: 4326, name: "WGS 84", organization: "EPSG", code: 4326, definition: "")
        #expect(throws: TilesetError.self) {
            _ = try GeoPackageTileWriter(path: path, tms: try TileMatrixSet.named("GNOSISGlobalGrid"), srs: srs, zooms: 0...4)
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
