import Foundation
import TegulaCodec
import TegulaGeometry
import TegulaTestSupport
import TegulaTileset
import Testing

/// Small pyramids in grids other than Web Mercator's — the British National Grid (EPSG:27700, a
/// custom set) and WorldCRS84Quad (OGC:CRS84, two tiles at zoom 0) — written as GeoPackages and
/// read back by GDAL's GPKG driver: `gdalinfo` finds the CRS, the content's origin and the
/// deepest zoom's pixel size, and `gdal_translate -oo ZOOM_LEVEL=N` of each zoom gives every
/// tile's colour where the tile lies; GDAL's validator (`validate_gpkg.py`) finds nothing. Each
/// tile is one flat colour made from its column, row and zoom. The CRS rows carry `gdalsrsinfo`'s
/// WKT. (`tegula tile --tms` cuts into these grids; until it does, the tiles are made here.)
@Suite(.timeLimit(.minutes(20)))
struct GeoPackageTileWriterTests {
    /// A grid, its CRS as `gdalsrsinfo` names it, the row's id, the content's box in the grid and
    /// the zooms written.
    struct Grid: Sendable, CustomStringConvertible {
        var name: String, crs: String, srsID: Int, content: GridBounds, zooms: ClosedRange<Int>
        var description: String { name }

        func tms() throws -> TileMatrixSet {
            guard name == "BNG" else { return try TileMatrixSet.named(name) }
            return try TileMatrixSet.custom(
                extent: GridBounds(left: -238375.0, bottom: 0.0, right: 900000.0, top: 1376256.0),
                crs: .init(uri: "http://www.opengis.net/def/crs/EPSG/0/27700", metersPerUnit: 1, axes: ["E", "N"]),
                zooms: 0...3, id: "BNG")
        }

        func srs() throws -> GeoPackageTileWriter.SpatialReference {
            let wkt = try ProgramRun.run("gdalsrsinfo", ["-o", "wkt1", "--single-line", crs]).stdout
                .trimmingCharacters(in: .whitespacesAndNewlines)
            return GeoPackageTileWriter.SpatialReference(
                id: srsID, name: crs, organization: srsID == 27700 ? "EPSG" : "NONE", code: srsID, definition: wkt)
        }
    }

    /// Great Britain's box in BNG; Europe's in longitude and latitude.
    static let grids = [
        Grid(name: "BNG", crs: "EPSG:27700", srsID: 27700, content: GridBounds(left: 0, bottom: 0, right: 700000, top: 1300000), zooms: 0...3),
        Grid(name: "WorldCRS84Quad", crs: "OGC:CRS84", srsID: 100000, content: GridBounds(left: -10, bottom: 35, right: 30, top: 70), zooms: 0...5),
    ]

    /// The colour of tile `t`: red its column, green its row, blue its zoom (times 40).
    static func colour(_ t: Tile) -> [UInt8] { [UInt8(t.x * 30 % 250 + 5), UInt8(t.y * 30 % 250 + 5), UInt8(t.z * 40 + 20), 255] }

    static func png(_ t: Tile) -> [UInt8] {
        let pixels = [UInt8]((0..<(256 * 256)).flatMap { _ in colour(t) })
        return PNGEncoder().encode(pixels: pixels, width: 256, height: 256, channels: 4)
    }

    @Test(arguments: grids)
    func gdalReadsTheGridAndEveryZoomsTiles(grid: Grid) throws {
        let tms = try grid.tms()
        let zooms = grid.zooms
        let folder = try TemporaryFolder.make("gpkg")
        let path = folder.appendingPathComponent("\(grid.name).gpkg").path
        let writer = try GeoPackageTileWriter(path: path, tms: tms, srs: try grid.srs())
        let content = grid.content
        var written: [Tile] = []
        for z in zooms {
            for t in tms.tiles(covering: content, zoom: z) {
                try writer.write(t, data: Self.png(t))
                written.append(t)
            }
        }
        #expect(!FileManager.default.fileExists(atPath: path), "OUT appears only when finished")
        try writer.finish(zooms: zooms, contents: content)

        let info = try ProgramRun.run("gdalinfo", ["-json", path])
        #expect(info.status == 0, "\(info.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any])
        let gt = try #require(json["geoTransform"] as? [Double])
        let wktOut = ((json["coordinateSystem"] as? [String: Any])?["wkt"] as? String) ?? ""
        let srsName = try grid.srs().definition.split(separator: "\"")[1]
        #expect(wktOut.contains(srsName), "CRS \(srsName): \(wktOut.prefix(200))")
        let deepest = try tms.matrix(zoom: zooms.upperBound).cellSize
        #expect(abs(gt[1] - deepest) < 1e-9 * deepest && abs(gt[5] + deepest) < 1e-9 * deepest, "pixel size \(gt)")
        #expect(gt[2] == 0 && gt[4] == 0)
        #expect(abs(gt[0] - content.left) < deepest && abs(gt[3] - content.top) < deepest, "origin \(gt) for \(content)")

        var compared = 0
        for z in zooms {
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
        #expect(compared >= 20, "only \(compared) tiles compared")
        let v = try ProgramRun.run("python3", ["-m", "osgeo_utils.samples.validate_gpkg", "--warning-as-error", path])
        #expect(v.status == 0, "validate_gpkg: \(v.stdout) \(v.stderr)")
    }

    @Test func aGridWithCoalescedRowsIsRefusedInOneLine() throws {
        let folder = try TemporaryFolder.make("gpkg-refused")
        let path = folder.appendingPathComponent("g.gpkg").path
        let srs = GeoPackageTileWriter.SpatialReference(id: 4326, name: "WGS 84", organization: "EPSG", code: 4326, definition: "")
        #expect(throws: TilesetError.self) {
            _ = try GeoPackageTileWriter(path: path, tms: try TileMatrixSet.named("GNOSISGlobalGrid"), srs: srs)
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    /// A writer dropped before `finish` (a failed cut) leaves neither OUT nor its temporary file,
    /// and an OUT that was there stays as it was; bytes that are no PNG, JPEG or WebP are refused.
    @Test func anUnfinishedWriterLeavesNothingAndNonImagesAreRefused() throws {
        let grid = Self.grids[1]
        let tms = try grid.tms()
        let folder = try TemporaryFolder.make("gpkg-unfinished")
        let path = folder.appendingPathComponent("w.gpkg").path
        try Data("before".utf8).write(to: URL(fileURLWithPath: path))
        do {
            let writer = try GeoPackageTileWriter(path: path, tms: tms, srs: try grid.srs())
            try writer.write(Tile(x: 0, y: 0, z: 0), data: Self.png(Tile(x: 0, y: 0, z: 0)))
            #expect(throws: TilesetError.self) { try writer.write(Tile(x: 1, y: 0, z: 0), data: Array("GIF89a".utf8)) }
            #expect(throws: TilesetError.self) { try writer.write(Tile(x: 2, y: 0, z: 0), data: Self.png(Tile(x: 0, y: 0, z: 0))) }
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == 2, "OUT and its temporary while writing")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["w.gpkg"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("before".utf8))
    }
}
