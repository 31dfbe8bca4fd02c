import Foundation
import TegulaTestSupport
import Testing

/// `tegula run` end to end: the plan, a run, a failing map in a batch, located errors.
@Suite(.timeLimit(.minutes(20)))
struct RunCLITests {

    /// A temp folder with a small un-georeferenced copy of the Blue Marble (`small.tif`).
    static func folder() throws -> URL {
        let d = FileManager.default.temporaryDirectory.appendingPathComponent("tegula-run-\(UUID())")
        try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true)
        let r = try ProgramRun.run("gdal_translate", ["-q", "-outsize", "256", "128", BlueMarble.path, d.appendingPathComponent("small.tif").path])
        #expect(r.status == 0, "\(r.stderr)")
        return d
    }

    static func write(_ text: String, _ name: String, in dir: URL) throws -> String {
        let p = dir.appendingPathComponent(name).path
        try text.write(toFile: p, atomically: true, encoding: .utf8)
        return p
    }

    static let twoMaps = """
        version: 1
        maps:
          - name: world
            input: small.tif
            georeference: {bounds: [-180, -90, 180, 90]}
            tile: {min_zoom: 0, max_zoom: 1}
            output: out/world.mbtiles
          - name: ungeoreferenced
            input: small.tif
            output: out/broken
        """

    @Test func dryRunPrintsThePlanAndWritesNothing() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = try Self.write(
            Self.twoMaps.replacingOccurrences(
                of: "input: small.tif\n    output: out/broken",
                with: "input: small.tif\n    georeference: {bounds: [-180, -90, 180, 90]}\n    output: out/b"), "p.yml", in: dir)
        let r = try TegulaBinary.run(["run", file, "--dry-run"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stdout.contains("tile         would run    zooms 0-1, 5 tile positions (z0: 1, z1: 4), png 256 px xyz → \(dir.path)/out/world.mbtiles"),
            "\(r.stdout)")
        #expect(r.stdout.contains("dry run: nothing was written"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["p.yml", "small.tif"])
    }

    @Test func batchWithOneFailingMapExitsNonZeroAndKeepsTheOthers() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = try Self.write(Self.twoMaps, "batch.yml", in: dir)
        let r = try TegulaBinary.run(["run", file, "--quiet"])
        #expect(r.status == 1)
        #expect(
            r.stderr.contains("error: map 'ungeoreferenced', georeference stage: \(dir.path)/small.tif has no georeference of its own"), "\(r.stderr)"
        )
        #expect(r.stderr.contains("1 of 2 maps failed ('ungeoreferenced'); finished and intact: world"), "\(r.stderr)")
        let sqlite = try ProgramRun.run("sqlite3", [dir.appendingPathComponent("out/world.mbtiles").path, "select count(*) from tiles"])
        #expect(sqlite.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "5", "\(sqlite.stderr)")

        let again = try TegulaBinary.run(["run", file, "--quiet"])
        #expect(again.status == 1)
        #expect(again.stderr.contains("world: tile         skipped (unchanged): zooms 0-1"), "\(again.stderr)")
    }

    @Test func unknownKeyIsOneLocatedLine() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = try Self.write(Self.twoMaps.replacingOccurrences(of: "min_zoom", with: "minzoom"), "typo.yml", in: dir)
        let r = try TegulaBinary.run(["run", file])
        #expect(r.status == 1)
        #expect(r.stderr == "tegula: \(file):6:12: maps[0].tile.minzoom: unknown key 'minzoom'; did you mean 'min_zoom'?\n", "\(r.stderr)")
    }

    @Test func stageOptionNeedsThePreviousStage() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = try Self.write(Self.twoMaps, "p.yml", in: dir)
        let r = try TegulaBinary.run(["run", file, "--stage", "tile"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("map 'world', tile stage: no recorded warp output"), "\(r.stderr)")
    }
}
