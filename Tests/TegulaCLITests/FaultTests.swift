import Foundation
import TegulaTestSupport
import Testing

/// `tegula tile` under faults (issue 16 item 4): killed with SIGKILL at random moments and
/// resumed, a full disk, an output it may not write, and two runs on one output. Eight kills per
/// form here (3 fixed, 5 random) keep the suite short; `scripts/fault-trials` runs 20 and more, figures in
/// RELIABILITY.md.
@Suite(.serialized, .timeLimit(.minutes(20))) struct FaultTests {
    /// The synthetic scan, zoom 2–8: a run long enough (about a second) to be killed mid-way.
    static func arguments(_ scan: String, _ out: String, resume: Bool = false, zoom: String = "2-8") -> [String] {
        ["tile", scan, "-o", out, "--zoom", zoom, "--quiet"] + (resume ? ["--resume"] : [])
    }

    /// When to send `count` kills, as fractions of `took`, the uninterrupted run's measured
    /// length. A command that starts over is killed at random fractions 0.1–0.8 of it (measured at
    /// 0.1–0.9: 20 of 20 `warp` and 17–20 of 20 `georef` kills landed, georef's 0.4 s varying most
    /// on a busy machine). A command that resumes does only what
    /// is left, so random fractions let a rerun finish early and the later kills miss (measured:
    /// 10 of 20 `tile` kills into MBTiles, 3 of 20 `run` kills landed): its kills share out 80 %
    /// of the work, `took - startup`, each at `startup` (what a run spends before it has work,
    /// measured by the caller) plus 0.5–1.5 of its share, so all the killed runs together cannot
    /// do the whole work and each kill lands mid-run.
    static func killMoments(_ count: Int, took: Double, resumes: Bool, startup: Double = 0, using rng: inout SeededRandom) -> [Double] {
        guard resumes else { return (0..<count).map { _ in Double.random(in: 0.1...0.8, using: &rng) * took } }
        let share = 0.8 * max(0, took - startup) / Double(count)
        return (0..<count).map { _ in startup + Double.random(in: 0.5...1.5, using: &rng) * share }
    }

    /// Kills at the first moments (where a killed MBTiles run used to leave a file its rerun
    /// refused as "exists and is not a tileset") and at random ones, each run after the first
    /// with `--resume`; a last `--resume` run then completes with every tile byte-identical to an
    /// uninterrupted run, and nothing else is left beside the output (no lock, no temporary file,
    /// no journal).
    @Test(arguments: ["tiles", "tiles.mbtiles", "tiles.pmtiles"])
    func killedAtRandomMomentsThenResumedGivesTheSameTiles(name: String) throws {
        let dir = try TemporaryFolder.make("fault").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let scan = dir + "/scan.tif"
        try SyntheticGeoTIFF.write(to: scan)
        try FileManager.default.createDirectory(atPath: dir + "/ref", withIntermediateDirectories: false)
        let start = Date()
        let ref = try TegulaBinary.run(Self.arguments(scan, dir + "/ref/" + name))
        let took = Date().timeIntervalSince(start)
        try #require(ref.status == 0, "\(ref.stderr)")
        let expected = try TilesetDigest.of(dir + "/ref/" + name)

        let work = dir + "/work"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: false)
        let out = work + "/" + name
        // 8 moments (3 fixed, 5 random; `scripts/fault-trials` runs the issue's 20): the first
        // ones, where the reported bug lived, then shared out over the work the resumed runs have
        // left (0.16 + 0.8 of `took` in all, short of the whole).
        var rng = SeededRandom()
        let moments = [0.02, 0.04, 0.1].map { $0 * took } + Self.killMoments(5, took: took, resumes: true, using: &rng)
        var landed = 0
        for (i, t) in moments.enumerated() {
            let r = try TegulaBinary.killed(Self.arguments(scan, out, resume: i > 0), after: t)
            if r.killed { landed += 1 } else { #expect(r.status == 0, "run \(i) was not killed and failed: \(r.stderr); \(rng.replay)") }
        }
        let last = try TegulaBinary.run(Self.arguments(scan, out, resume: true))
        #expect(last.status == 0, "\(last.stderr); \(rng.replay)")
        let got = try TilesetDigest.of(out)
        #expect(got.digest == expected.digest && got.tiles == expected.tiles, "\(got.tiles) tiles vs \(expected.tiles); \(rng.replay)")
        let beside = try FileManager.default.contentsOfDirectory(atPath: work)
        #expect(beside == [name], "left beside the output: \(beside); \(rng.replay)")
        print(
            "fault \(name): uninterrupted \(String(format: "%.2f", took)) s, \(expected.tiles) tiles; kills at "
                + moments.map { String(format: "%.2f", $0) }.joined(separator: ", ") + " s, \(landed) landed mid-run; resumed digest equal")
        #expect(landed >= 7, "\(landed) of 8 kills landed mid-run, fewer than 7; \(rng.replay)")
    }

    /// While one run writes an output, a second on the same output is refused with one line
    /// naming the holder's pid; once the holder is killed, its lock file is taken over and the
    /// next run completes and removes it.
    @Test func aSecondRunIsRefusedWithTheHoldersPidAndAKilledHoldersLockIsTakenOver() throws {
        let dir = try TemporaryFolder.make("fault").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let scan = dir + "/scan.tif"
        try SyntheticGeoTIFF.write(to: scan)
        for name in ["busy", "busy.mbtiles", "busy.pmtiles"] {
            let out = dir + "/" + name
            let holder = Process()
            holder.executableURL = try TegulaBinary.url
            holder.environment = ProgramRun.childEnvironment()
            holder.arguments = Self.arguments(scan, out, zoom: "2-10")
            holder.standardOutput = FileHandle.nullDevice
            holder.standardError = FileHandle.nullDevice
            try holder.run()
            let deadline = Date().addingTimeInterval(30)
            while !FileManager.default.fileExists(atPath: out + ".lock") && holder.isRunning && Date() < deadline { usleep(2000) }
            try #require(holder.isRunning, "the first run ended before the second could try")
            let second = try TegulaBinary.run(Self.arguments(scan, out, resume: true, zoom: "2-10"))
            let stillRunning = holder.isRunning
            kill(holder.processIdentifier, SIGKILL)
            holder.waitUntilExit()
            #expect(stillRunning)
            #expect(second.status != 0)
            let lines = second.stderr.split(separator: "\n")
            #expect(
                lines.count == 1 && second.stderr.contains("process \(holder.processIdentifier)") && second.stderr.contains(out),
                "\(second.stderr)")
            #expect(FileManager.default.fileExists(atPath: out + ".lock"))  // left by the killed holder
            // Resuming it with other zooms is refused by the stamp the killed run left
            // (`OUT.resume`): its zoom-6 tiles were averaged from zoom 10, a 2–6 run's are cut
            // at zoom 6, and one tileset would hold both.
            let mixed = try TegulaBinary.run(Self.arguments(scan, out, resume: true, zoom: "2-6"))
            #expect(
                mixed.status == 1 && mixed.stderr.contains("settings zooms 2-10") && mixed.stderr.contains("without --resume"),
                "\(mixed.stderr)")
            let taken = try TegulaBinary.run(Self.arguments(scan, out, zoom: "2-6"))
            #expect(taken.status == 0, "\(taken.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out + ".resume"))
            #expect(!FileManager.default.fileExists(atPath: out + ".lock"))
        }
    }

    /// Runs `script` as root of a new user and mount namespace (`unshare -rm`), where it may
    /// mount a tmpfs without privileges; the variables are passed in the environment.
    static func inNamespace(_ script: String, _ env: [String: String]) throws -> ProgramRun {
        try ProgramRun.run("unshare", ["-rm", "sh", "-c", script], environment: env)
    }

    /// Output on a full tmpfs: one line naming the path and "no space left", non-zero exit, an
    /// earlier complete output on the same disk untouched, nothing half-written left but what
    /// `--resume` continues; once space is freed, the resumed run completes with the tiles of an
    /// uninterrupted run.
    @Test(arguments: ["tiles", "tiles.mbtiles", "tiles.pmtiles"])
    func aFullDiskIsOneClearLineAndTheRerunCompletes(name: String) throws {
        let dir = try TemporaryFolder.make("fault").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let scan = dir + "/scan.tif"
        try SyntheticGeoTIFF.write(to: scan)
        let ref = try TegulaBinary.run(Self.arguments(scan, dir + "/ref-" + name))
        try #require(ref.status == 0, "\(ref.stderr)")
        let expected = try TilesetDigest.of(dir + "/ref-" + name)
        try FileManager.default.createDirectory(atPath: dir + "/disk", withIntermediateDirectories: false)
        try FileManager.default.createDirectory(atPath: dir + "/out", withIntermediateDirectories: false)
        let script = #"""
            set -u
            mount -t tmpfs -o size=256k tmpfs "$D" || exit 90
            "$TEGULA" tile "$SCAN" -o "$D/earlier-$NAME" --zoom 2-3 --quiet || exit 91
            (cd "$D" && find . -type f | sort | xargs sha256sum) > "$OUT/before.sum"
            "$TEGULA" tile "$SCAN" -o "$D/$NAME" --zoom 2-8 --quiet 2> "$OUT/full.err"; echo $? > "$OUT/full.status"
            (cd "$D" && find "./earlier-$NAME" -type f | sort | xargs sha256sum) > "$OUT/after.sum"
            mount -o remount,size=64m "$D" || exit 92
            "$TEGULA" tile "$SCAN" -o "$D/$NAME" --zoom 2-8 --quiet --resume 2> "$OUT/rerun.err"; echo $? > "$OUT/rerun.status"
            ls -A "$D" > "$OUT/left.ls"
            cp -a "$D/$NAME" "$OUT/$NAME"
            """#
        let run = try Self.inNamespace(
            script,
            [
                "D": dir + "/disk", "OUT": dir + "/out", "TEGULA": try TegulaBinary.url.path,
                "SCAN": scan, "NAME": name,
            ])
        try #require(run.status == 0, "namespace script failed (\(run.status)): \(run.stderr)")
        func text(_ f: String) throws -> String { try String(contentsOfFile: dir + "/out/" + f, encoding: .utf8) }
        let full = try text("full.err")
        #expect(try text("full.status").trimmingCharacters(in: .whitespacesAndNewlines) != "0", "the run on a full disk succeeded")
        #expect(
            full.split(separator: "\n").count == 1 && full.lowercased().contains("no space left")
                && full.contains(dir + "/disk/" + name), "\(full)")
        let before = try text("before.sum"), after = try text("after.sum")
        #expect(!after.isEmpty && before == after, "the earlier output changed:\n\(before)\nvs\n\(after)")
        let rerun = try text("rerun.err")
        #expect(try text("rerun.status").trimmingCharacters(in: .whitespacesAndNewlines) == "0", "\(rerun)")
        let left = try text("left.ls")
        #expect(left.split(separator: "\n").map(String.init).sorted() == ["earlier-" + name, name].sorted(), "\(left)")
        let got = try TilesetDigest.of(dir + "/out/" + name)
        #expect(got.digest == expected.digest && got.tiles == expected.tiles)
        print("fault full disk \(name): \(full.trimmingCharacters(in: .whitespacesAndNewlines))")
    }

    /// A zoom range that would plan 10^13 tiles (a typo'd `--zoom 0-30`) is refused at once,
    /// before the output is touched, with the scan's own zoom as the way out.
    @Test func absurdZoomsAreRefusedBeforeTheOutputIsTouched() throws {
        let dir = try TemporaryFolder.make("fault").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let scan = dir + "/scan.tif"
        try SyntheticGeoTIFF.write(to: scan)
        for zoom in ["0-30", "24-26", "30"] {
            let r = try TegulaBinary.run(Self.arguments(scan, dir + "/z.mbtiles", zoom: zoom))
            #expect(
                r.status != 0 && r.stderr.split(separator: "\n").count == 1 && r.stderr.contains("tile positions")
                    && r.stderr.contains("--zoom auto"), "\(zoom): \(r.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["scan.tif"])
    }

    /// Outputs it may not write: one line naming the path, non-zero exit, nothing written.
    @Test func unwritableOutputsAreOneClearLine() throws {
        let dir = try TemporaryFolder.make("fault").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let scan = dir + "/scan.tif"
        try SyntheticGeoTIFF.write(to: scan)
        try Data("notes".utf8).write(to: URL(fileURLWithPath: dir + "/file.mbtiles"))
        try Data("notes".utf8).write(to: URL(fileURLWithPath: dir + "/file"))
        for out in [
            dir + "/missing/folder/tiles", dir + "/missing/t.mbtiles", dir + "/missing/t.pmtiles",
            dir + "/file.mbtiles", dir + "/file", dir + "/file/t.pmtiles",
        ] {
            let r = try TegulaBinary.run(Self.arguments(scan, out, zoom: "2-3"))
            #expect(r.status != 0 && r.stderr.split(separator: "\n").count == 1 && r.stderr.contains(out), "\(out): \(r.stderr)")
        }
        #expect(try String(contentsOfFile: dir + "/file.mbtiles", encoding: .utf8) == "notes")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["file", "file.mbtiles", "scan.tif"])
        // A read-only file system (root ignores permission bits, so a read-only mount).
        try FileManager.default.createDirectory(atPath: dir + "/ro", withIntermediateDirectories: false)
        let script = #"""
            mount -t tmpfs -o ro,size=64k tmpfs "$D" || exit 90
            for name in tiles t.mbtiles t.pmtiles; do
              "$TEGULA" tile "$SCAN" -o "$D/$name" --zoom 2-3 --quiet; echo "status $?"
            done
            """#
        let ro = try Self.inNamespace(script, ["D": dir + "/ro", "TEGULA": try TegulaBinary.url.path, "SCAN": scan])
        #expect(ro.status == 0, "\(ro.stderr)")
        #expect(ro.stdout.split(separator: "\n") == ["status 1", "status 1", "status 1"], "\(ro.stdout)")
        let lines = ro.stderr.split(separator: "\n")
        #expect(lines.count == 3 && lines.allSatisfy { $0.contains(dir + "/ro/") && $0.lowercased().contains("read-only") }, "\(ro.stderr)")
    }
}
