import Foundation
import TegulaTestSupport
import Testing

/// A folder cut in WorldCRS84Quad, whose matrices are twice as wide as Web Mercator's (2 × 1
/// tiles at zoom 0): its tiles are listed and digested all, columns past 2^z too, and `--resume`
/// keeps them, after a finished run and after one killed before it wrote `tms.json`. The files on
/// disk are what Python's `os.walk` and `os.stat` find. The scan (lon 5…23) lies wholly in
/// columns at or past 2^z.
@Suite(.timeLimit(.minutes(20)))
struct GridFolderResumeCLITests {
    static let cut = ["--tms", "WorldCRS84Quad", "--zoom", "0-3", "--quiet"]

    /// The tiles under `folder` as Python's `os.walk` finds them: `z/x/y` to the file's inode.
    static func inodes(_ folder: String) throws -> [String: Int] {
        let script = """
            import os, sys
            root = sys.argv[1]
            for d, _, files in os.walk(root):
                for f in files:
                    if f.endswith(".png"):
                        rel = os.path.relpath(os.path.join(d, f), root)
                        print(rel[: -len(".png")], os.stat(os.path.join(d, f)).st_ino)
            """
        let r = try ProgramRun.run("python3", ["-c", script, folder])
        try #require(r.status == 0, "os.walk: \(r.stderr.suffix(600))")
        var out: [String: Int] = [:]
        for line in r.stdout.split(separator: "\n") {
            let parts = line.split(separator: " ")
            out[String(parts[0])] = Int(parts[1])
        }
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
}
