import Foundation
import TegulaTestSupport
import Testing

/// `tegula tile --format/--quality` from the command line: bad values refused in one line before
/// anything is written, `auto` refused by MBTiles, and GDAL reading the JPEG and WebP tiles we write.
@Suite(.timeLimit(.minutes(20)))
struct TileFormatCLITests {
    @Test(arguments: [
        (["--format", "jpg", "--quality", "0"], "quality 0 is out of range; expected 1–100"),
        (["--format", "webp", "--quality", "101"], "quality 101 is out of range"),
        (["--format", "png", "--quality", "80"], "quality applies to jpg, webp and auto, not png"),
        (["--format", "png8", "--quality", "80"], "not png8"),
        (["--format", "gif"], "gif"),
        (["--format", "webp", "--webp-effort", "10"], "'10' is invalid for '--webp-effort"),
        (["--format", "png", "--webp-effort", "3"], "webp-effort applies to format webp (lossless) only, not png"),
        (
            ["--format", "webp", "--quality", "80", "--webp-effort", "3"],
            "webp-effort applies to lossless webp only; with a quality (80) the tiles are lossy"
        ),
    ])
    func badFormatOrQualityIsRefusedInOneLine(args: [String], message: String) throws {
        let dir = try TemporaryFolder.make("cli-fmt")
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try BlueMarble.georeferenced(in: dir)
        let out = dir.appendingPathComponent("t").path
        let r = try TegulaBinary.run(["tile", input, "-o", out, "--zoom", "1"] + args)
        #expect(r.status != 0)
        #expect(r.stderr.contains(message), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").filter { $0.contains("rror") }.count == 1, "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// `--webp-effort` reaches the tiles: effort 9 writes fewer bytes than effort 0 for the same
    /// tiles, and no effort at all writes what the default effort writes.
    @Test func webpEffortReachesTheTiles() throws {
        let dir = try TemporaryFolder.make("cli-fmt")
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try BlueMarble.georeferenced(in: dir)
        func bytes(_ extra: [String], _ name: String) throws -> [String: Int] {
            let out = dir.appendingPathComponent(name).path
            let r = try TegulaBinary.run(["tile", input, "-o", out, "--zoom", "0-1", "--format", "webp", "--quiet"] + extra)
            #expect(r.status == 0, "\(r.stderr)")
            var sizes: [String: Int] = [:]
            for case let path as String in FileManager.default.enumerator(atPath: out)! where path.hasSuffix(".webp") {
                sizes[path] = try FileManager.default.attributesOfItem(atPath: out + "/" + path)[.size] as? Int
            }
            return sizes
        }
        let fast = try bytes(["--webp-effort", "0"], "e0"), small = try bytes(["--webp-effort", "9"], "e9")
        #expect(fast.count == 5 && Set(fast.keys) == Set(small.keys), "\(fast.keys.sorted())")
        #expect(
            small.values.reduce(0, +) < fast.values.reduce(0, +),
            "effort 9: \(small.values.reduce(0, +)) bytes, effort 0: \(fast.values.reduce(0, +))")
        let help = try TegulaBinary.run(["tile", "--help"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let level = try #require(help.firstMatch(of: /--webp-effort <0-9> With lossless webp: [^.]*default (\d)/)?.1, "\(help)")
        #expect(try bytes([], "default") == (try bytes(["--webp-effort", String(level)], "e\(level)")))
    }

    @Test func autoIsRefusedByMBTiles() throws {
        let dir = try TemporaryFolder.make("cli-fmt")
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try BlueMarble.georeferenced(in: dir)
        let out = dir.appendingPathComponent("t.mbtiles").path
        let r = try TegulaBinary.run(["tile", input, "-o", out, "--zoom", "1", "--format", "auto", "--quiet"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("MBTiles declares one tile format per tileset"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// GDAL's JPEG and WEBP drivers read the tiles, the right size and band count.
    @Test(arguments: [
        ("jpg", "JPEG", 3, [String]()), ("webp", "WEBP", 4, []), ("webp", "WEBP", 4, ["--quality", "75"]),
        ("webp", "WEBP", 4, ["--webp-effort", "9"]),
    ])
    func gdalReadsOurTiles(ext: String, driver: String, bands: Int, extra: [String]) throws {
        let dir = try TemporaryFolder.make("cli-fmt")
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try BlueMarble.georeferenced(in: dir)
        let out = dir.appendingPathComponent("t").path
        let r = try TegulaBinary.run(["tile", input, "-o", out, "--zoom", "1", "--format", ext, "--quiet"] + extra)
        #expect(r.status == 0, "\(r.stderr)")
        let info = try ProgramRun.output("gdalinfo", [out + "/1/0/0.\(ext)"])
        #expect(info.contains("Driver: \(driver)/"), "\(info)")
        #expect(info.contains("Size is 256, 256"))
        // The top rows lie north of the scan (85°), so the tile has alpha: WebP keeps it, JPEG cannot.
        #expect(info.components(separatedBy: "\nBand ").count - 1 == bands, "\(info)")
    }
}
