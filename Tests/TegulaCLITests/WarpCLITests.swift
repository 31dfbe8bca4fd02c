import Foundation
import TegulaTestSupport
import Testing

/// `tegula warp` and `tegula tile` from the command line: outputs, bad input, nothing half-written.
@Suite(.timeLimit(.minutes(20)))
struct WarpCLITests {
    @Test func warpsOntoTheZoomGridAndSaysWhichZoom() throws {
        let dir = try TemporaryFolder.make("cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try BlueMarble.georeferenced(in: dir)
        let out = dir.appendingPathComponent("w.tif").path
        let r = try TegulaBinary.run(["warp", input, "-o", out, "--zoom", "auto"])
        #expect(r.status == 0, "\(r.stderr)")
        // 2700 px over 360°: native ≈ 14.8 km/px, nearest zoom 3 (19.6 km/px) vs 4 (9.8 km/px).
        #expect(r.stderr.contains("zoom auto = 3"), "\(r.stderr)")
        let info = try TegulaBinary.run(["info", out, "--json"])
        let j = try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any]
        let gt = j?["geoTransform"] as? [Double] ?? []
        #expect(abs(gt[1] - 19567.87924100512) < 1e-6)
        #expect(j?["srs"] as? String == "EPSG:3857")
        #expect(j?["hasAlpha"] as? Bool == true)
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(!files.contains { $0.contains(".tmp") })
    }

    @Test func beyondTheMercatorLimitIsClippedWithAWarning() throws {
        let dir = try TemporaryFolder.make("cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try BlueMarble.georeferenced(in: dir, north: 90, south: -90)
        let out = dir.appendingPathComponent("w.tif").path
        let r = try TegulaBinary.run(["warp", input, "-o", out, "--zoom", "2", "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("warning") && r.stderr.contains("85.0511"))
        let info = try TegulaBinary.run(["info", out, "--json"])
        let j = try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any]
        #expect(j?["height"] as? Int == 1024 && j?["width"] as? Int == 1024)
    }

    @Test func truncatedInputFailsInOneLineAndLeavesOutputUntouched() throws {
        let dir = try TemporaryFolder.make("cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let full = try Data(contentsOf: URL(fileURLWithPath: BlueMarble.path))
        let cut = dir.appendingPathComponent("cut.jpg")
        try full.prefix(full.count / 2).write(to: cut)
        let input = try BlueMarble.georeferenced(cut.path, in: dir)
        let out = dir.appendingPathComponent("existing.tif")
        try Data("previous result".utf8).write(to: out)
        for args in [
            ["warp", input, "-o", out.path, "--zoom", "2"],
            ["tile", input, "-o", dir.appendingPathComponent("tiles").path, "--zoom", "0-2"],
        ] {
            let r = try TegulaBinary.run(args)
            #expect(r.status != 0)
            #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
            #expect(r.stderr.contains("cut.jpg"))
        }
        #expect(try Data(contentsOf: out) == Data("previous result".utf8))
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        #expect(files.filter { !$0.hasSuffix(".vrt") } == ["cut.jpg", "existing.tif"])
    }

    @Test func badOptionsAreOneClearLine() throws {
        let dir = try TemporaryFolder.make("cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try BlueMarble.georeferenced(in: dir)
        let plain = try TegulaBinary.run(["warp", BlueMarble.path, "-o", dir.appendingPathComponent("x.tif").path])
        #expect(plain.status != 0 && plain.stderr.contains("--gcps"))
        let zoom = try TegulaBinary.run(["tile", input, "-o", dir.appendingPathComponent("t").path, "--zoom", "5-2"])
        #expect(zoom.status != 0 && zoom.stderr.contains("MIN is above MAX"))
        let missing = try TegulaBinary.run(["tile", dir.appendingPathComponent("nope.tif").path, "-o", dir.appendingPathComponent("t").path])
        #expect(missing.status != 0 && missing.stderr.contains("no such file"))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("t").path))
    }

    @Test func tilesAFolderWithTileJSONAndTMSLayout() throws {
        let dir = try TemporaryFolder.make("cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try BlueMarble.georeferenced(in: dir)
        let xyz = dir.appendingPathComponent("xyz").path, tms = dir.appendingPathComponent("tms").path
        var r = try TegulaBinary.run(["tile", input, "-o", xyz, "--zoom", "0-2", "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        r = try TegulaBinary.run(["tile", input, "-o", tms, "--zoom", "0-2", "--layout", "tms", "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let tj = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: xyz + "/tiles.json"))) as? [String: Any]
        #expect(tj?["tilejson"] as? String == "3.0.0")
        #expect(tj?["minzoom"] as? Int == 0 && tj?["maxzoom"] as? Int == 2)
        #expect(FileManager.default.fileExists(atPath: tms + "/tilemapresource.xml"))
        // Row 0 (north) in XYZ is row 3 in TMS at zoom 2.
        let a = try Data(contentsOf: URL(fileURLWithPath: xyz + "/2/1/0.png"))
        let b = try Data(contentsOf: URL(fileURLWithPath: tms + "/2/1/3.png"))
        #expect(a == b)
        r = try TegulaBinary.run(["tile", input, "-o", dir.appendingPathComponent("s2").path, "--zoom", "1", "--scale", "2", "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        // An @2x tile is a PNG of 512 × 512 px, as GDAL reads it.
        let retina = try ProgramRun.output("gdalinfo", ["-json", dir.appendingPathComponent("s2/1/0/0@2x.png").path])
        let info = try JSONSerialization.jsonObject(with: Data(retina.utf8)) as? [String: Any]
        #expect(info?["driverShortName"] as? String == "PNG" && info?["size"] as? [Int] == [512, 512], "\(retina.prefix(300))")
    }
}
