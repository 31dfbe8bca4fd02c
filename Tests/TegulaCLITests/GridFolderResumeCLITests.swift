import Foundation
import TegulaTestSupport
import Testing

/// A folder cut in WorldCRS84Quad, whose matrices are twice as wide as Web Mercator's (2 × 1
/// tiles at zoom 0): its tiles are listed and digested all, columns past 2^z too, and `--resume`
/// keeps them, after a finished run and after one killed before it wrote `tms.json`. The files on
/// disk are what Python's `os.walk`, `hashlib` and `os.stat` find. The scan (lon 5…23) lies wholly
/// in columns at or past 2^z. A run killed by strace as either file that marks a finished folder
/// lands, and a custom set of 3 × 2 tiles at zoom 0, are resumed to the uninterrupted cut's bytes.
@Suite(.timeLimit(.minutes(20)))
struct GridFolderResumeCLITests {
    static let cut = ["--tms", "WorldCRS84Quad", "--zoom", "0-3", "--quiet"]

    /// A file as Python finds it: its SHA-256 (`hashlib`) and its inode (`os.stat`).
    struct OnDisk: Equatable {
        let sha256: String
        let inode: Int
    }

    /// Every file under `folder` as Python's `os.walk` finds it, by its path relative to the folder.
    static func files(_ folder: String) throws -> [String: OnDisk] {
        let script = """
            import hashlib, os, sys
            root = sys.argv[1]
            for d, _, files in os.walk(root):
                for f in files:
                    p = os.path.join(d, f)
                    with open(p, "rb") as b:
                        print(os.path.relpath(p, root), hashlib.sha256(b.read()).hexdigest(), os.stat(p).st_ino)
            """
        let r = try ProgramRun.run("python3", ["-c", script, folder])
        try #require(r.status == 0, "os.walk: \(r.stderr.suffix(600))")
        var out: [String: OnDisk] = [:]
        for line in r.stdout.split(separator: "\n") {
            let parts = line.split(separator: " ")
            out[String(parts[0])] = OnDisk(sha256: String(parts[1]), inode: Int(parts[2]) ?? -1)
        }
        return out
    }

    /// The tiles under `folder` (``files(_:)``): `z/x/y` to the file's inode.
    static func inodes(_ folder: String) throws -> [String: Int] {
        var out: [String: Int] = [:]
        for (path, file) in try files(folder) where path.hasSuffix(".png") { out[String(path.dropLast(4))] = file.inode }
        return out
    }

    /// `TileMatrixSetCLITests.scan()` cut into `crs84/` with ``cut``: the scan's folder (the
    /// caller removes it), the scan and the cut folder.
    static func cutScan() throws -> (dir: URL, scan: String, out: String) {
        let (dir, scan) = try TileMatrixSetCLITests.scan()
        let out = dir.appendingPathComponent("crs84").path
        let r = try TegulaBinary.run(["tile", scan, "-o", out] + Self.cut)
        try #require(r.status == 0, "\(r.stderr)")
        return (dir, scan, out)
    }

    @Test func aWorldCRS84QuadFolderListsAndDigestsEveryTileOnDiskColumnsPast2ToTheZToo() throws {
        let (dir, _, out) = try Self.cutScan()
        defer { try? FileManager.default.removeItem(at: dir) }
        let onDisk = Set(try Self.inodes(out).keys)
        let wide = onDisk.filter { key in
            let n = key.split(separator: "/").compactMap { Int($0) }
            return n[1] >= 1 << n[0]
        }
        #expect(onDisk.count == 8 && wide == onDisk, "\(onDisk.sorted())")
        #expect(Set(try TilesetDigest.perTile(out).keys) == onDisk)
        #expect(try TilesetDigest.of(out).tiles == onDisk.count)
    }

    @Test func aResumeOfAFinishedWorldCRS84QuadCutRewritesNoTile() throws {
        let (dir, scan, out) = try Self.cutScan()
        defer { try? FileManager.default.removeItem(at: dir) }
        let before = try Self.inodes(out)
        let again = try TegulaBinary.run(["tile", scan, "-o", out, "--resume"] + Self.cut)
        try #require(again.status == 0, "\(again.stderr)")
        let after = try Self.inodes(out)
        #expect(!before.isEmpty && after == before, "rewritten: \(after.filter { before[$0.key] != $0.value }.keys.sorted())")
    }

    /// A run killed before `finish` leaves the marker and the tiles that landed, without
    /// `tiles.json` and `tms.json`: that state is made by removing both and one tile.
    @Test func aResumeAfterAKillKeepsTheTilesThatLandedAndCutsTheOneMissing() throws {
        let (dir, scan, out) = try Self.cutScan()
        defer { try? FileManager.default.removeItem(at: dir) }
        let whole = try InteropTests.files(under: out, skip: ["tiles.json", ".tegula-tileset", "tms.json"])
        let lost = try #require(whole.keys.filter { $0.hasPrefix("3/") }.sorted().first)
        for f in ["tiles.json", "tms.json", lost] { try FileManager.default.removeItem(atPath: out + "/" + f) }
        let landed = try Self.inodes(out)
        let resumed = try TegulaBinary.run(["tile", scan, "-o", out, "--resume"] + Self.cut)
        try #require(resumed.status == 0, "\(resumed.stderr)")
        let after = try Self.inodes(out)
        #expect(landed.allSatisfy { after[$0.key] == $0.value }, "rewritten: \(landed.filter { after[$0.key] != $0.value }.keys.sorted())")
        #expect(try InteropTests.files(under: out, skip: ["tiles.json", ".tegula-tileset", "tms.json"]) == whole)
        #expect(FileManager.default.fileExists(atPath: out + "/tms.json"))
    }

    /// A finished folder has no resume stamp: `--resume` in another set than its own would mix
    /// two grids' tiles under one `tms.json`, so it is refused in one line, nothing written.
    @Test func aResumeInAnotherSetThanTheFinishedFoldersIsRefusedInOneLineWritingNothing() throws {
        let (dir, scan) = try TileMatrixSetCLITests.scan()
        defer { try? FileManager.default.removeItem(at: dir) }
        let crs84 = dir.appendingPathComponent("crs84").path, mercator = dir.appendingPathComponent("mercator").path
        let cut = [
            try TegulaBinary.run(["tile", scan, "-o", crs84] + Self.cut),
            try TegulaBinary.run(["tile", scan, "-o", mercator, "--zoom", "0-3", "--quiet"]),
        ]
        try #require(cut.allSatisfy { $0.status == 0 }, "\(cut.map(\.stderr))")
        let before = [try Self.inodes(crs84), try Self.inodes(mercator)]
        let crossed = [
            try TegulaBinary.run(["tile", scan, "-o", crs84, "--zoom", "0-3", "--quiet", "--resume"]),
            try TegulaBinary.run(["tile", scan, "-o", mercator, "--resume"] + Self.cut),
        ]
        for (r, held) in zip(crossed, ["WorldCRS84Quad", "WebMercatorQuad"]) {
            let lines = r.stderr.split(separator: "\n")
            #expect(r.status != 0 && lines.count == 1 && lines[0].contains("cannot resume") && lines[0].contains(held), "\(r.stderr)")
        }
        #expect([try Self.inodes(crs84), try Self.inodes(mercator)] == before)
        #expect(!FileManager.default.fileExists(atPath: mercator + "/tms.json"))
    }

    /// `tegula ARGS` under strace, its threads followed and every `rename(2)` logged to `log`
    /// (each file of a folder lands by a rename: `AtomicFile`), with SIGKILL delivered as a thread
    /// enters its `killAt`th rename, which then never happens: the exit status and the renames'
    /// targets thread by thread, in the kernel's order (a killed run's last is the one it died in).
    static func traced(_ args: [String], killAt: Int? = nil, log: String) throws -> (status: Int32, renames: [String: [String]]) {
        let inject = killAt.map { ["-e", "inject=rename:signal=KILL:when=\($0)"] } ?? []
        let r = try ProgramRun.run("strace", ["-f", "-qq", "-o", log, "-e", "trace=rename"] + inject + ["--", try TegulaBinary.url.path] + args)
        var renames: [String: [String]] = [:]
        let line = /^(\d+) +rename\("[^"]*", "([^"]*)"/
        for l in try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n") {
            if let m = l.firstMatch(of: line) { renames[String(m.1), default: []].append(String(m.2)) }
        }
        return (r.status, renames)
    }

    /// The files that mark a finished folder land in a safe order: a run killed as `tms.json`
    /// lands leaves neither it nor `tiles.json`, one killed as `tiles.json` lands has `tms.json`
    /// already (which morecantile reads as the set), so no kill leaves a folder that looks finished
    /// in WebMercatorQuad; `--resume` completes each to the uninterrupted cut's bytes. Which rename
    /// to kill at is counted in the uninterrupted run's own trace (one thread: `--jobs 1`).
    @Test func aKillAsEitherFinishingFileLandsLeavesNoFolderFinishedWithoutItsSetAndResumeCompletesIt() throws {
        let (dir, scan) = try TileMatrixSetCLITests.scan()
        defer { try? FileManager.default.removeItem(at: dir) }
        let cut = Self.cut + ["--jobs", "1"], whole = dir.appendingPathComponent("whole").path
        let clean = try Self.traced(["tile", scan, "-o", whole] + cut, log: whole + ".strace")
        try #require(clean.status == 0, "\(clean)")
        let expected = try Self.files(whole).mapValues(\.sha256)
        // What each kill leaves of the two files, and the set morecantile reads in tms.json.
        for (landing, left) in [("tms.json", ""), ("tiles.json", "tms.json WorldCRS84Quad")] {
            let n = try #require(clean.renames.values.compactMap { $0.firstIndex(of: whole + "/" + landing) }.first, "\(clean)") + 1
            let out = dir.appendingPathComponent("killed-" + landing).path
            let killed = try Self.traced(["tile", scan, "-o", out] + cut, killAt: n, log: out + ".strace")
            try #require(
                killed.status == SIGKILL && killed.renames.values.contains { $0.count == n && $0.last == out + "/" + landing },
                "not killed as \(landing) landed: \(killed)")
            let state = try InteropTests.python(
                """
                import os, sys, morecantile
                here = [f for f in ("tiles.json", "tms.json") if os.path.isfile(os.path.join(sys.argv[1], f))]
                if "tms.json" in here:
                    here.append(morecantile.TileMatrixSet.model_validate_json(open(sys.argv[1] + "/tms.json").read()).id)
                print(" ".join(here))
                """, [out])
            #expect(state == left, "killed as \(landing) landed, the folder holds '\(state)'")
            let resumed = try TegulaBinary.run(["tile", scan, "-o", out, "--resume"] + cut)
            #expect(resumed.status == 0, "\(resumed.stderr)")
            #expect(try Self.files(out).mapValues(\.sha256) == expected, "killed as \(landing) landed and resumed")
        }
    }

    /// A custom set of 3 × 2 tiles at zoom 0 (6 × 4, 12 × 8, 24 × 16 below: no power of two) on
    /// the British National Grid, with England (``OnDemandGridCLITests/britishGridAndEngland(in:)``)
    /// in its last columns, past 2^z, and rows past 2^z at zoom 0: the cut holds exactly the tiles
    /// morecantile's `tiles()` lists over the scan's box, and after a kill before `tiles.json` (it
    /// and one max-zoom tile removed) `--resume` cuts that tile again to the same bytes (`hashlib`)
    /// and rewrites no other (`os.stat`).
    @Test func aResumeInACustomSetOfThreeByTwoTilesAtZoomZeroCutsOnlyTheMissingTileAgain() throws {
        let dir = try TemporaryFolder.make("grid-resume-3x2")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (_, scan) = try OnDemandGridCLITests.britishGridAndEngland(in: dir)
        let grid = dir.appendingPathComponent("bng-3x2.json").path, out = dir.appendingPathComponent("bng-3x2").path
        let made = try TegulaBinary.run([
            "grid", "--tms-from", "EPSG:27700", "--extent", "-600000,-100000,600000,700000", "--matrix-scale", "3,2", "--zoom", "0-3",
            "--id", "BNG3x2", "-o", grid,
        ])
        try #require(made.status == 0, "\(made.stderr)")
        let cut = ["--tms", grid, "--zoom", "0-3", "--quiet"]
        let tiled = try TegulaBinary.run(["tile", scan, "-o", out] + cut)
        try #require(tiled.status == 0, "\(tiled.stderr)")
        // The box is the one the fixture gives the scan (gdal_translate -a_ullr -2 52.6 0.4 51.9).
        let listed = try InteropTests.python(
            """
            import sys, morecantile
            tms = morecantile.TileMatrixSet.model_validate_json(open(sys.argv[1] + "/tms.json").read())
            print(" ".join(f"{m.matrixWidth}x{m.matrixHeight}" for m in tms.tileMatrices))
            print(" ".join(f"{t.z}/{t.x}/{t.y}" for t in tms.tiles(-2, 51.9, 0.4, 52.6, [0, 1, 2, 3])))
            """, [out]
        ).split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        try #require(listed.count == 2 && listed[0] == ["3x2", "6x4", "12x8", "24x16"], "\(listed)")
        let whole = try Self.files(out)
        let tiles = Set(whole.keys.filter { $0.hasSuffix(".png") }.map { String($0.dropLast(4)) })
        #expect(tiles == Set(listed[1]), "on disk \(tiles.sorted()), morecantile \(listed[1])")
        let narrow = tiles.filter { key in
            let n = key.split(separator: "/").compactMap { Int($0) }
            return n[1] < 1 << n[0]
        }
        #expect(narrow.isEmpty, "columns below 2^z: \(narrow.sorted())")
        let lost = try #require(listed[1].last) + ".png"
        for f in ["tiles.json", lost] { try FileManager.default.removeItem(atPath: out + "/" + f) }
        let landed = try Self.files(out).filter { $0.key.hasSuffix(".png") }
        let resumed = try TegulaBinary.run(["tile", scan, "-o", out, "--resume"] + cut)
        try #require(resumed.status == 0, "\(resumed.stderr)")
        let after = try Self.files(out)
        #expect(
            after.mapValues(\.sha256) == whole.mapValues(\.sha256),
            "resumed: \(after.filter { whole[$0.key]?.sha256 != $0.value.sha256 }.keys.sorted())")
        #expect(landed.allSatisfy { after[$0.key] == $0.value }, "rewritten: \(landed.filter { after[$0.key] != $0.value }.keys.sorted())")
        #expect(after[lost] != nil && landed[lost] == nil)
    }
}
