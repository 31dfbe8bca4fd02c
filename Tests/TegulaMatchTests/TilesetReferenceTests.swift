import Foundation
import TegulaCodec
import TegulaGeometry
import TegulaGeoreference
import TegulaScan
import TegulaTestSupport
import TegulaTileset
import Testing

@testable import TegulaMatch

/// A tileset as the reference (issue 42 item 2): the georeferenced 1689 scan cut into tiles by the
/// real pyramid (`tegula tile`, zooms 5–10; zoom 10 is about half a re-scan's resolution), a
/// re-scan of it by a known homography matched against the tiles, and the fit of the points
/// measured against that homography over the sheet.
@Suite struct TilesetReferenceTests {
    /// The truth, made once per process: the reference, its tilesets, the re-scans.
    struct Fixture: Sendable {
        var folder: URL
        var reference: String
        var tilesets: [String: String]
        var rescans: [String: MatchFixtures.Rescan]
    }

    static let fixture = Result { () throws -> Fixture in
        let folder = try TemporaryFolder.make("match-tileset")
        let reference = try MatchFixtures.reference(in: folder)
        var tilesets: [String: String] = [:]
        for name in ["tiles", "reference.mbtiles", "reference.pmtiles"] {
            tilesets[name] = try MatchFixtures.tileset(of: reference, name, in: folder)
        }
        // 512-pixel tiles, and 256-pixel tiles at scale 2: zoom 9 has zoom 10's pixels of 256-pixel tiles.
        tilesets["reference-512.pmtiles"] = try MatchFixtures.tileset(
            of: reference, "reference-512.pmtiles", zooms: "4-9",
            options: ["--tile-size", "512"], in: folder)
        tilesets["reference@2x.mbtiles"] = try MatchFixtures.tileset(
            of: reference, "reference@2x.mbtiles", zooms: "4-9",
            options: ["--scale", "2"], in: folder)
        var rescans: [String: MatchFixtures.Rescan] = [:]
        for d in [
            MatchFixtures.Distortion(name: "rotated-1.3", degrees: -20, scale: 1.3, jpegQuality: 75),
            .init(name: "combined-1.3", degrees: 120, scale: 1.3, perspective: 1e-4, crop: 0.6, jpegQuality: 40, gamma: 1.6),
        ] {
            rescans[d.name] = try MatchFixtures.rescan(d, in: folder)
        }
        return Fixture(folder: folder, reference: reference, tilesets: tilesets, rescans: rescans)
    }

    /// How far the homography through `points` (scan → the reference pixel their written ground
    /// names) is from the truth over the sheet, in scan pixels.
    static func fitError(_ points: [(scan: PixelPoint, ground: GroundPoint)], _ rescan: MatchFixtures.Rescan) throws -> (rms: Double, worst: Double) {
        let pairs = points.map { MatchEngine.Pair(a: $0.scan, b: MatchFixtures.referencePixel($0.ground), distinctiveness: 0) }
        let fitted = try #require(MatchEngine.homography(pairs))
        return MatchFixtures.error(of: fitted, against: rescan.truth, width: rescan.width, height: rescan.height)
    }

    /// (re-scan, tileset, the zoom it is read at): the three forms, 512-pixel tiles and `@2x`
    /// tiles, and the combined distortion against a PMTiles.
    static let cases = [
        "rotated-1.3 tiles 10", "rotated-1.3 reference.mbtiles 10", "rotated-1.3 reference.pmtiles 10",
        "rotated-1.3 reference-512.pmtiles 9", "rotated-1.3 reference@2x.mbtiles 9", "combined-1.3 reference.pmtiles 10",
    ]

    @Test("a re-scan matched against a tileset at half its resolution fits the truth within 1 px RMS over the sheet", arguments: cases)
    func rescanMatchedAgainstATileset(_ which: String) throws {
        let f = try Self.fixture.get()
        let parts = which.split(separator: " ").map(String.init)
        let rescan = try #require(f.rescans[parts[0]]), tileset = try #require(f.tilesets[parts[1]])
        let scan = try LocalScans().open(rescan.path).reader()
        let reference = try MatchReference.tileset(at: tileset, scanWidth: scan.width, scanHeight: scan.height)
        let tiles = try #require(reference.reader as? TileScanReader)
        #expect(tiles.window.zoom == Int(parts[2]), "\(reference.summary ?? "")")
        #expect(tiles.window.resolution == WebMercator.resolution(zoom: 10), "\(reference.summary ?? "")")
        #expect(reference.crs == .webMercator)
        let verdict = try Matcher.match(scan: scan, reference: reference.reader)
        guard case .matched(let points, let figures) = verdict else {
            Issue.record("\(which): no match: \(verdict)")
            return
        }
        let grounds = try reference.groundPoints(points.map(\.reference))
        let e = try Self.fitError(zip(points.map(\.scan), grounds).map { ($0, $1) }, rescan)
        // The figures BENCHMARKS.md records (`… --filter TilesetReferenceTests | grep match-figures`).
        print(
            "match-figures tileset \(which): \(rescan.width) × \(rescan.height) scan, \(reference.summary ?? ""), "
                + String(
                    format: "%d points, RMS %.3f px, worst %.3f px, %d inliers of %d", points.count, e.rms, e.worst, figures.inliers,
                    figures.tentative))
        #expect((12...40).contains(points.count), "\(which): \(points.count) points")
        #expect(e.rms <= 1.0, "\(which): RMS \(e.rms) scan px; \(figures)")
        // Decoded tiles stay within the reader's cache, whatever the tileset's size.
        #expect(tiles.cachedBytes <= TileScanReader.defaultCacheBytes)
    }

    @Test func aWindowReadsTheTilesPixelsAndItsGroundIsTheTileGrid() throws {
        let f = try Self.fixture.get()
        let path = try #require(f.tilesets["reference.pmtiles"])
        let reference = try MatchReference.tileset(at: path, scanWidth: 3500, scanHeight: 1750)
        let reader = try #require(reference.reader as? TileScanReader)
        let w = reader.window
        // A 300 × 300 window around the corner shared by four tiles inside the sheet (its corner
        // on zoom 8's grid, 4 pixels of zoom 10).
        let tx = (w.column + w.width / 2) / 256 + 1, ty = (w.row + w.height / 2) / 256 + 1
        let x = tx * 256 - w.column - 152, y = ty * 256 - w.row - 152
        var read = [UInt8](repeating: 7, count: 300 * 300 * 4)
        try read.withUnsafeMutableBufferPointer {
            try reader.readRGBA(x: x, y: y, width: 300, height: 300, bufferWidth: 300, bufferHeight: 300, into: $0.baseAddress!)
        }
        let tiles = try Tileset.openReader(at: path)
        var decoded: [Tile: RGBAImage] = [:]
        var differing = 0
        for j in 0..<300 {
            for i in 0..<300 {
                let gx = w.column + x + i, gy = w.row + y + j, tile = Tile(x: gx / 256, y: gy / 256, z: 10)
                if decoded[tile] == nil { decoded[tile] = try TileDecoder.decode(try #require(try tiles.tile(tile))).rgba }
                let image = try #require(decoded[tile])
                let p = ((gy % 256) * 256 + gx % 256) * 4, q = (j * 300 + i) * 4
                if Array(image.pixels[p..<(p + 4)]) != Array(read[q..<(q + 4)]) { differing += 1 }
            }
        }
        #expect(differing == 0, "\(differing) pixels differ from their tiles'")
        // The shared corner's ground is the tile grid's, to the millimetre.
        let corner = try reference.groundPoints([PixelPoint(x: Double(x + 152), y: Double(y + 152))])[0]
        let expected = Tile(x: tx, y: ty, z: 10).projectedBounds
        #expect(abs(corner.x - expected.left) < 1e-3 && abs(corner.y - expected.top) < 1e-3, "\(corner) vs \(expected)")
        // A reduced read comes from a lower zoom: 4 × smaller is zoom 8, whose pixels average the window's.
        var reduced = [UInt8](repeating: 0, count: 75 * 75 * 4)
        try reduced.withUnsafeMutableBufferPointer {
            try reader.readRGBA(x: x, y: y, width: 300, height: 300, bufferWidth: 75, bufferHeight: 75, into: $0.baseAddress!)
        }
        var sum = 0.0
        for j in 0..<75 {
            for i in 0..<75 {
                var mean = 0.0
                for dy in 0..<4 { for dx in 0..<4 { mean += Double(read[((j * 4 + dy) * 300 + i * 4 + dx) * 4]) / 16 } }
                sum += abs(mean - Double(reduced[(j * 75 + i) * 4]))
            }
        }
        #expect(sum / (75 * 75) < 2, "reduced read vs the window's 4 × 4 means: \(sum / (75 * 75)) levels apart on average")
    }

    @Test func theZoomReadIsTheOneNearestTheScansPixels() {
        // The reference's bounds: 270 × 135 km.
        let bounds = ProjectedBounds(left: 400_000, bottom: 6_965_000, right: 670_000, top: 7_100_000)
        // Zoom 11's 76.4 m pixels hold the bounds in 3533 × 1767 px, a 3510 × 1755 scan's count.
        #expect(MatchReference.bestZoom(bounds: bounds, tilePixels: 256, zooms: 5...14, scanPixels: 3510 * 1755) == 11)
        // At most the tileset's max zoom.
        #expect(MatchReference.bestZoom(bounds: bounds, tilePixels: 256, zooms: 5...10, scanPixels: 3510 * 1755) == 10)
        // 512-px tiles: one zoom less for the same pixels.
        #expect(MatchReference.bestZoom(bounds: bounds, tilePixels: 512, zooms: 5...14, scanPixels: 3510 * 1755) == 10)
        // A scan 4 × coarser on each side: two zooms less.
        #expect(MatchReference.bestZoom(bounds: bounds, tilePixels: 256, zooms: 5...14, scanPixels: 3510 * 1755 / 16) == 9)
    }

    /// Tilesets that do not show the scan's map.
    static let unrelated = ["blue-marble", "other-half-of-the-sheet"]

    @Test("a scan against a tileset of another map gets no points", arguments: unrelated)
    func anUnrelatedTilesetIsRefused(_ name: String) throws {
        let f = try Self.fixture.get()
        let folder = try TemporaryFolder.make("match-tileset-unrelated")
        let (scanPath, tileset) = try Self.unrelatedPair(name, fixture: f, in: folder)
        let scan = try LocalScans().open(scanPath).reader()
        let reference = try MatchReference.tileset(at: tileset, scanWidth: scan.width, scanHeight: scan.height)
        let verdict = try Matcher.match(scan: scan, reference: reference.reader)
        if case .matched(let points, let figures) = verdict {
            Issue.record("\(name): matched with \(points.count) points: \(figures)")
        }
    }

    /// A scan and a tileset that do not show the same map: a re-scan against Blue Marble's
    /// tiles, or the sheet's west half against the tiles of its east half (the same engraver's
    /// hand, another place).
    static func unrelatedPair(_ name: String, fixture f: Fixture, in folder: URL) throws -> (scan: String, tileset: String) {
        if name == "blue-marble" {
            let world = try BlueMarble.georeferenced(in: folder)
            return (try #require(f.rescans["rotated-1.3"]).path, try MatchFixtures.tileset(of: world, "world.pmtiles", zooms: "1-3", in: folder))
        }
        let west = folder.appendingPathComponent("west.tif").path, east = folder.appendingPathComponent("east.tif").path
        try ProgramRun.output("gdal_translate", ["-q", "-srcwin", "0", "0", "1200", "1350", Schagen1689.scan, west])
        try ProgramRun.output("gdal_translate", ["-q", "-srcwin", "1500", "0", "1200", "1350", f.reference, east])
        return (west, try MatchFixtures.tileset(of: east, "east.mbtiles", zooms: "6-11", in: folder))
    }

    @Test func theCLIWritesPointsFromATilesetAndRefusesAnotherMap() throws {
        let f = try Self.fixture.get()
        let folder = try TemporaryFolder.make("match-tileset-cli")
        let tegula = try BuiltTegula.path()
        let rescan = try #require(f.rescans["rotated-1.3"]), tileset = try #require(f.tilesets["reference.pmtiles"])
        let out = folder.appendingPathComponent("proposed.points").path
        let run = try ProgramRun.run(tegula, ["match", rescan.path, "--reference", tileset, "-o", out])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("reference: zoom 10 of the tileset"), "\(run.stderr)")
        #expect(run.stderr.contains("leave-one-out RMSE"), "the fit report of tegula georef: \(run.stderr)")
        let set = try GCPReader.read(path: out)
        #expect(set.crs.label == "EPSG:3857")
        #expect((12...40).contains(set.gcps.count), "\(set.gcps.count) points")
        let e = try Self.fitError(set.gcps.map { ($0.pixel, $0.ground) }, rescan)
        #expect(e.rms <= 1.0, "RMS \(e.rms) scan px")

        // GCPs for a tileset make no sense: refused in one line.
        let withGCPs = try ProgramRun.run(
            tegula,
            [
                "match", rescan.path, "--reference", tileset, "--reference-gcps", Schagen1689.points,
                "-o", folder.appendingPathComponent("refused.points").path,
            ])
        #expect(withGCPs.status == 1, "\(withGCPs.stderr)")
        #expect(withGCPs.stderr.contains("is a tileset"), "\(withGCPs.stderr)")

        // The same tiles over loopback HTTP, by the TileJSON `tegula serve` answers.
        let server = try LocalHTTPServer.tegula(["serve", tileset])
        defer { server.stop() }
        let remote = folder.appendingPathComponent("remote.points").path
        let overHTTP = try ProgramRun.run(tegula, ["match", rescan.path, "--reference", server.base + "/reference.json", "-o", remote])
        #expect(overHTTP.status == 0, "\(overHTTP.stderr)")
        #expect(overHTTP.stderr.contains("reference: zoom 10 of the tileset"), "\(overHTTP.stderr)")
        let fetched = try GCPReader.read(path: remote)
        let eHTTP = try Self.fitError(fetched.gcps.map { ($0.pixel, $0.ground) }, rescan)
        #expect(eHTTP.rms <= 1.0, "over HTTP: RMS \(eHTTP.rms) scan px")
        // A URL that answers no TileJSON: refused in one line.
        let noTileJSON = try ProgramRun.run(
            tegula,
            [
                "match", rescan.path, "--reference", server.base + "/nothing.json",
                "-o", folder.appendingPathComponent("refused.points").path,
            ])
        #expect(noTileJSON.status == 1, "\(noTileJSON.stderr)")
        #expect(noTileJSON.stderr.contains("give the URL of a tileset's TileJSON"), "\(noTileJSON.stderr)")

        // Another map: exit 3, one line, nothing written.
        let (scan, other) = try Self.unrelatedPair("other-half-of-the-sheet", fixture: f, in: folder)
        let none = folder.appendingPathComponent("none.points").path
        let refused = try ProgramRun.run(tegula, ["match", scan, "--reference", other, "-o", none])
        #expect(refused.status == 3, "\(refused.stderr)")
        #expect(refused.stderr.contains("no match"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: none))
    }
}
